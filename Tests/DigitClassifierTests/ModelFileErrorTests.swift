import DigitClassifier
import Foundation
import Testing

/// Builds a safetensors file from (name, dtype, shape, bytes) entries.
func safetensors(_ tensors: [(String, String, [Int], [UInt8])]) -> [UInt8] {
    var header: [String: Any] = [:]
    var data: [UInt8] = []
    for (name, dtype, shape, bytes) in tensors {
        header[name] = ["dtype": dtype, "shape": shape, "data_offsets": [data.count, data.count + bytes.count]]
        data += bytes
    }
    let json = [UInt8](try! JSONSerialization.data(withJSONObject: header))
    var length = UInt64(json.count)
    return withUnsafeBytes(of: &length) { Array($0) } + json + data
}

@Suite("A wrong, truncated or foreign weights file fails with a clear error")
struct ModelFileErrorTests {
    func code(_ bytes: [UInt8]) -> ModelLoadError.Code? {
        do {
            _ = try DigitClassifier(safetensors: bytes, name: "test.safetensors")
            return nil
        } catch {
            #expect(error.message.hasPrefix("test.safetensors: "))
            return error.code
        }
    }

    @Test("Missing file")
    func missing() {
        #expect(throws: ModelLoadError(.unreadable, path: "/nonexistent/m.safetensors",
                                       "cannot read the weights file")) {
            _ = try DigitClassifier(contentsOf: "/nonexistent/m.safetensors")
        }
    }

    @Test("Empty, random, and text files are malformed")
    func notSafetensors() {
        #expect(code([]) == .malformed)
        #expect(code([UInt8](repeating: 0xFF, count: 64)) == .malformed)
        #expect(code(Array("{\"hello\": 1}".utf8)) == .malformed)
    }

    @Test("The shipped model cut short is malformed", arguments: [0.1, 0.5, 0.999])
    func truncated(_ fraction: Double) throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Shipped.modelPath)))
        #expect(code(Array(bytes.prefix(Int(Double(bytes.count) * fraction)))) == .malformed)
    }

    @Test("A foreign safetensors file is the wrong model")
    func foreign() {
        #expect(code(safetensors([("embedding.weight", "F32", [2, 2], [UInt8](repeating: 0, count: 16))])) == .wrongModel)
    }

    @Test("Wrong shape or dtype is the wrong model")
    func wrongShapeOrDtype() throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Shipped.modelPath)))
        let model = try DigitClassifier(safetensors: bytes, name: "ok")
        #expect(model.classCount == 11)
        // conv1.weight as 16 output channels
        var tensors: [(String, String, [Int], [UInt8])] = [
            ("conv1.weight", "F32", [16, 1, 5, 5], .init(repeating: 0, count: 16 * 25 * 4)),
            ("fc2.bias", "F32", [10], .init(repeating: 0, count: 40)),
        ]
        #expect(code(safetensors(tensors)) == .wrongModel)
        tensors[0] = ("conv1.weight", "I64", [32, 1, 5, 5], .init(repeating: 0, count: 32 * 25 * 8))
        #expect(code(safetensors(tensors)) == .wrongModel)
    }
}
