/// Why a weights file could not be used: a code for programs, a message for people.
public struct ModelLoadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure.
    public enum Code: String, Sendable {
        /// The file is missing or cannot be read.
        case unreadable = "model_unreadable"
        /// Not a safetensors file, or its header or data are cut short or inconsistent.
        case malformed = "model_malformed"
        /// A safetensors file, but not this network: a tensor is missing, misshapen or of
        /// an unsupported dtype.
        case wrongModel = "model_mismatch"
    }

    /// The kind of failure.
    public let code: Code
    /// What went wrong, naming the file.
    public let message: String
    /// The weights file.
    public let path: String

    /// Makes an error; the message is prefixed with the path.
    public init(_ code: Code, path: String, _ cause: String) {
        self.code = code
        self.path = path
        self.message = "\(path): \(cause)"
    }

    /// The message.
    public var description: String { message }
}
