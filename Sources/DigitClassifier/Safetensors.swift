import Foundation

/// A parsed safetensors file: an 8-byte little-endian header length, a JSON header
/// naming each tensor's dtype, shape and byte range, then the raw little-endian data.
struct Safetensors {
    struct Tensor {
        let dtype: String
        let shape: [Int]
        let range: Range<Int>   // into `data`
    }

    let tensors: [String: Tensor]
    let metadata: [String: String]
    let data: [UInt8]

    /// The bytes of the weights file at `path`; `what` names it in the error ("the weights
    /// file").
    static func bytes(at path: String, what: String) throws(ModelLoadError) -> [UInt8] {
        do {
            return try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw ModelLoadError(.unreadable, path: path, "cannot read \(what)")
        }
    }

    init(bytes: [UInt8], path: String) throws(ModelLoadError) {
        guard bytes.count >= 8 else {
            throw ModelLoadError(.malformed, path: path, "\(bytes.count) bytes: too short for a safetensors header")
        }
        var headerLength = 0
        for i in 0..<8 { headerLength |= Int(bytes[i]) << (8 * i) }
        guard headerLength > 1, headerLength <= 100_000_000, 8 + headerLength <= bytes.count else {
            throw ModelLoadError(.malformed, path: path,
                                 "header length \(headerLength) does not fit a \(bytes.count)-byte file")
        }
        let json: Any
        do {
            json = try JSONSerialization.jsonObject(with: Data(bytes[8..<(8 + headerLength)]))
        } catch {
            throw ModelLoadError(.malformed, path: path, "header is not JSON")
        }
        guard let header = json as? [String: Any] else {
            throw ModelLoadError(.malformed, path: path, "header is not a JSON object")
        }
        let data = Array(bytes[(8 + headerLength)...])
        var tensors: [String: Tensor] = [:]
        var metadata: [String: String] = [:]
        for (name, value) in header {
            if name == "__metadata__" {
                metadata = (value as? [String: String]) ?? [:]
                continue
            }
            guard let entry = value as? [String: Any], let dtype = entry["dtype"] as? String,
                  let shape = entry["shape"] as? [Int], let offsets = entry["data_offsets"] as? [Int],
                  offsets.count == 2, offsets[0] >= 0, offsets[0] <= offsets[1],
                  shape.allSatisfy({ $0 >= 0 }) else {
                throw ModelLoadError(.malformed, path: path, "tensor \(name): malformed header entry")
            }
            guard offsets[1] <= data.count else {
                throw ModelLoadError(.malformed, path: path,
                                     "tensor \(name) ends at byte \(offsets[1]) of \(data.count): file truncated")
            }
            tensors[name] = Tensor(dtype: dtype, shape: shape, range: offsets[0]..<offsets[1])
        }
        self.tensors = tensors
        self.metadata = metadata
        self.data = data
    }

    /// The tensor's values as Float, checking shape and dtype (F32 or F16).
    func floats(_ name: String, shape: [Int], path: String) throws(ModelLoadError) -> [Float] {
        guard let t = tensors[name] else {
            throw ModelLoadError(.wrongModel, path: path, "tensor \(name) missing")
        }
        guard t.shape == shape else {
            throw ModelLoadError(.wrongModel, path: path, "tensor \(name) has shape \(t.shape), expected \(shape)")
        }
        let count = shape.reduce(1, *)
        let width: Int
        switch t.dtype {
        case "F32": width = 4
        case "F16": width = 2
        default:
            throw ModelLoadError(.wrongModel, path: path, "tensor \(name) has dtype \(t.dtype); F32 or F16 expected")
        }
        guard t.range.count == count * width else {
            throw ModelLoadError(.malformed, path: path,
                                 "tensor \(name) holds \(t.range.count) bytes for \(count) values of \(t.dtype)")
        }
        return data.withUnsafeBytes { raw in
            (0..<count).map { i in
                let at = t.range.lowerBound + i * width
                if width == 4 {
                    var bits: UInt32 = 0
                    for b in 0..<4 { bits |= UInt32(raw[at + b]) << (8 * b) }
                    return Float(bitPattern: bits)
                }
                return halfToFloat(UInt16(raw[at]) | UInt16(raw[at + 1]) << 8)
            }
        }
    }
}

/// IEEE 754 binary16 → binary32, subnormals, infinities and NaN included.
func halfToFloat(_ h: UInt16) -> Float {
    let sign = UInt32(h & 0x8000) << 16
    let exponent = Int(h >> 10) & 0x1F
    let mantissa = UInt32(h & 0x3FF)
    if exponent == 0 {
        let magnitude = Float(mantissa) * 0x1p-24   // subnormal or zero
        return sign != 0 ? -magnitude : magnitude
    }
    if exponent == 31 { return Float(bitPattern: sign | 0x7F80_0000 | mantissa << 13) }
    return Float(bitPattern: sign | UInt32(exponent + 112) << 23 | mantissa << 13)
}
