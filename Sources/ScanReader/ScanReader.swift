@_exported import ImageCodecs
@_exported import ImagingCore
