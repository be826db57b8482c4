@_exported import DigitClassifier
@_exported import ImageCodecs
@_exported import ImagingCore
@_exported import DocumentImaging
