import Foundation

/// LeCun's IDX format (MNIST's files): magic 0x0000 08 NDIM, big-endian dimensions,
/// unsigned bytes. Only the unsigned-byte type is read.
public struct IDXFile: Sendable {
    /// Dimensions, outermost first (e.g. [10000, 28, 28]).
    public let dimensions: [Int]
    /// The values.
    public let bytes: [UInt8]

    /// Reads an IDX file.
    /// - Throws: `IDXError` naming the file on a missing, foreign or truncated file.
    public init(contentsOf path: String) throws(IDXError) {
        let data: [UInt8]
        do { data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) } catch {
            throw IDXError(message: "\(path): cannot read the file")
        }
        guard data.count >= 4, data[0] == 0, data[1] == 0 else {
            throw IDXError(message: "\(path): not an IDX file (bad magic)")
        }
        guard data[2] == 0x08 else {
            throw IDXError(message: "\(path): IDX element type 0x\(String(data[2], radix: 16)); only unsigned bytes (0x08) are supported")
        }
        let rank = Int(data[3])
        guard rank >= 1, data.count >= 4 + 4 * rank else {
            throw IDXError(message: "\(path): IDX header cut short")
        }
        var dims: [Int] = []
        for d in 0..<rank {
            let o = 4 + 4 * d
            dims.append(Int(data[o]) << 24 | Int(data[o + 1]) << 16 | Int(data[o + 2]) << 8 | Int(data[o + 3]))
        }
        let count = dims.reduce(1, *)
        guard data.count - (4 + 4 * rank) == count else {
            throw IDXError(message: "\(path): \(data.count - 4 - 4 * rank) data bytes, the header promises \(count)")
        }
        dimensions = dims
        bytes = Array(data[(4 + 4 * rank)...])
    }
}

/// A problem with an IDX file.
public struct IDXError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, naming the file.
    public let message: String
    /// The message.
    public var description: String { message }
}
