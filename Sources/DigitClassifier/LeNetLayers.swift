internal import CDigitKernels

/// The network's weights and its forward pass. Convolutions read their input image in
/// place as an im2col matrix (channels-last, zero-padded) through `dk_gemm`, with bias
/// and ReLU fused; 2×2 max-pooling follows each. Weights arrive in PyTorch layouts
/// (conv (out, in, kh, kw), linear (out, in), flatten order C, H, W) and are packed
/// once for the kernels; features are kept channels-last, so fc1's columns are permuted
/// to match.
struct LeNetLayers: Sendable {
    static let tensorNames: Set<String> = [
        "conv1.weight", "conv1.bias", "conv2.weight", "conv2.bias",
        "fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias",
    ]

    /// The instruction set the weights were packed for.
    let isa: dk_isa
    /// Packed weights (K × N for `dk_gemm`) and zero-padded biases.
    private let conv1: PackedLayer, conv2: PackedLayer, fc1: PackedLayer, fc2: PackedLayer
    let classes: Int

    init(conv1Weight: [Float], conv1Bias: [Float], conv2Weight: [Float], conv2Bias: [Float],
         fc1Weight: [Float], fc1Bias: [Float], fc2Weight: [Float], fc2Bias: [Float],
         classes: Int, isa: dk_isa = dk_best_isa()) {
        precondition(dk_isa_supported(isa) != 0, "this CPU cannot run \(String(cString: dk_isa_name(isa)))")
        self.isa = isa
        // conv: B[(ky·5 + kx)·in + c][o] = W[o][c][ky][kx]
        func convColumns(_ w: [Float], out: Int, in: Int) -> [Float] {
            var b = [Float](repeating: 0, count: 25 * `in` * out)
            for o in 0..<out {
                for c in 0..<`in` {
                    for t in 0..<25 { b[(t * `in` + c) * out + o] = w[(o * `in` + c) * 25 + t] }
                }
            }
            return b
        }
        // fc1: B[(y·7 + x)·64 + c][o] = W[o][c·49 + y·7 + x]
        // (in blocks of 32 outputs, so writes run along rows and reads stay in cache)
        var fc1Columns = [Float](repeating: 0, count: 3136 * 1024)
        fc1Columns.withUnsafeMutableBufferPointer { dst in
            fc1Weight.withUnsafeBufferPointer { src in
                for block in stride(from: 0, to: 1024, by: 32) {
                    for p in 0..<49 {
                        for c in 0..<64 {
                            let row = (p * 64 + c) * 1024, column = c * 49 + p
                            for o in block..<(block + 32) { dst[row + o] = src[o * 3136 + column] }
                        }
                    }
                }
            }
        }
        var fc2Columns = [Float](repeating: 0, count: 1024 * classes)
        for o in 0..<classes {
            for i in 0..<1024 { fc2Columns[i * classes + o] = fc2Weight[o * 1024 + i] }
        }
        conv1 = PackedLayer(isa: isa, k: 25, n: 32, columns: convColumns(conv1Weight, out: 32, in: 1), bias: conv1Bias)
        conv2 = PackedLayer(isa: isa, k: 800, n: 64, columns: convColumns(conv2Weight, out: 64, in: 32), bias: conv2Bias)
        fc1 = PackedLayer(isa: isa, k: 3136, n: 1024, columns: fc1Columns, bias: fc1Bias)
        fc2 = PackedLayer(isa: isa, k: 1024, n: classes, columns: fc2Columns, bias: fc2Bias)
        self.classes = classes
    }

    /// Logits for `count` inputs of 784 floats each.
    func forward(_ input: [Float], count: Int) -> [Float] {
        precondition(input.count == count * 784, "\(input.count) floats for \(count) inputs")
        if count == 0 { return [] }
        var features = [Float](repeating: 0, count: count * 3136)
        var padded1 = [Float](repeating: 0, count: 32 * 32)        // 28² + border 2, 1 channel
        var out1 = [Float](repeating: 0, count: 28 * 28 * 32)       // HWC
        var padded2 = [Float](repeating: 0, count: 18 * 18 * 32)    // 14² + border 2, HWC
        var out2 = [Float](repeating: 0, count: 14 * 14 * 64)
        for n in 0..<count {
            for y in 0..<28 {
                for x in 0..<28 { padded1[(y + 2) * 32 + x + 2] = input[n * 784 + y * 28 + x] }
            }
            // Output row y, pixel x reads padded rows y…y+4 from column x: rows 1 apart.
            for y in 0..<28 {
                padded1.withUnsafeBufferPointer { a in
                    conv1.apply(rows: 28, a: a.baseAddress! + y * 32,
                                layout: dk_a_layout(row_stride: 1, segments: 5, segment_length: 5,
                                                    segment_jump: 32),
                                relu: true, into: &out1, at: y * 28 * 32, ldc: 32)
                }
            }
            Self.maxPool(out1, side: 28, channels: 32, into: &padded2) { y, x in ((y + 2) * 18 + x + 2) * 32 }
            for y in 0..<14 {
                padded2.withUnsafeBufferPointer { a in
                    conv2.apply(rows: 14, a: a.baseAddress! + y * 18 * 32,
                                layout: dk_a_layout(row_stride: 32, segments: 5, segment_length: 160,
                                                    segment_jump: 18 * 32),
                                relu: true, into: &out2, at: y * 14 * 64, ldc: 64)
                }
            }
            Self.maxPool(out2, side: 14, channels: 64, into: &features) { y, x in n * 3136 + (y * 7 + x) * 64 }
        }
        let hiddenWidth = fc1.paddedN
        var hidden = [Float](repeating: 0, count: count * hiddenWidth)
        features.withUnsafeBufferPointer { a in
            fc1.apply(rows: count, a: a.baseAddress!,
                      layout: dk_a_layout(row_stride: 3136, segments: 1, segment_length: 3136, segment_jump: 0),
                      relu: true, into: &hidden, at: 0, ldc: hiddenWidth)
        }
        let width = fc2.paddedN
        var wide = [Float](repeating: 0, count: count * width)
        hidden.withUnsafeBufferPointer { a in
            fc2.apply(rows: count, a: a.baseAddress!,
                      layout: dk_a_layout(row_stride: hiddenWidth, segments: 1, segment_length: 1024,
                                          segment_jump: 0),
                      relu: false, into: &wide, at: 0, ldc: width)
        }
        var logits = [Float](repeating: 0, count: count * classes)
        for i in 0..<count {
            for j in 0..<classes { logits[i * classes + j] = wide[i * width + j] }
        }
        return logits
    }

    /// 2×2 max-pooling of a side×side×channels HWC image; `offset(y, x)` is where the
    /// channels of pooled pixel (y, x) go in `dst`. Inputs are already ReLU'd.
    private static func maxPool(_ src: [Float], side: Int, channels: Int, into dst: inout [Float],
                                offset: (Int, Int) -> Int) {
        let half = side / 2
        src.withUnsafeBufferPointer { s in
            dst.withUnsafeMutableBufferPointer { d in
                for y in 0..<half {
                    for x in 0..<half {
                        let p = (2 * y * side + 2 * x) * channels, q = p + side * channels
                        let o = offset(y, x)
                        for c in 0..<channels {
                            d[o + c] = max(max(s[p + c], s[p + channels + c]),
                                           max(s[q + c], s[q + channels + c]))
                        }
                    }
                }
            }
        }
    }
}

/// One layer's weights packed for `dk_gemm`: B (k × n) in panels, bias padded to match.
private struct PackedLayer: Sendable {
    let isa: dk_isa
    let k: Int, n: Int, paddedN: Int
    let packed: [Float], bias: [Float]

    init(isa: dk_isa, k: Int, n: Int, columns: [Float], bias: [Float]) {
        self.isa = isa
        self.k = k
        self.n = n
        let width = Int(dk_panel_width(isa))
        paddedN = (n + width - 1) / width * width
        var packed = [Float](repeating: 0, count: Int(dk_packed_size(isa, Int32(k), Int32(n))))
        dk_pack_b(isa, columns, Int32(k), Int32(n), &packed)
        self.packed = packed
        self.bias = bias + [Float](repeating: 0, count: paddedN - n)
    }

    /// C rows at `dst[offset…]` = A · B + bias (ReLU optional).
    func apply(rows: Int, a: UnsafePointer<Float>, layout: dk_a_layout, relu: Bool,
               into dst: inout [Float], at offset: Int, ldc: Int) {
        precondition(layout.segments * layout.segment_length == Int32(k))
        dst.withUnsafeMutableBufferPointer { c in
            let status = dk_gemm(isa, Int32(rows), Int32(n), a, layout, packed, bias, relu ? 1 : 0,
                                 c.baseAddress! + offset, ldc)
            precondition(status == 0, "out of memory for the classifier's scratch")
        }
    }
}
