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
    let widths: Widths
    let classes: Int

    /// The channels of the two convolutions and the hidden layer's width.
    struct Widths: Sendable, Equatable {
        let conv1: Int, conv2: Int, hidden: Int
        /// The digit classifier: TensorFlow's tutorial network.
        static let digits = Widths(conv1: 32, conv2: 64, hidden: 1024)
    }

    init(conv1Weight: [Float], conv1Bias: [Float], conv2Weight: [Float], conv2Bias: [Float],
         fc1Weight: [Float], fc1Bias: [Float], fc2Weight: [Float], fc2Bias: [Float],
         widths: Widths = .digits, classes: Int, isa: dk_isa = dk_best_isa()) {
        precondition(dk_isa_supported(isa) != 0, "this CPU cannot run \(String(cString: dk_isa_name(isa)))")
        self.isa = isa
        let (c1, c2, hidden) = (widths.conv1, widths.conv2, widths.hidden)
        let flat = 49 * c2
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
        // fc1: B[(y·7 + x)·c2 + c][o] = W[o][c·49 + y·7 + x]
        // (in blocks of 32 outputs, so writes run along rows and reads stay in cache)
        var fc1Columns = [Float](repeating: 0, count: flat * hidden)
        fc1Columns.withUnsafeMutableBufferPointer { dst in
            fc1Weight.withUnsafeBufferPointer { src in
                for block in stride(from: 0, to: hidden, by: 32) {
                    for p in 0..<49 {
                        for c in 0..<c2 {
                            let row = (p * c2 + c) * hidden, column = c * 49 + p
                            for o in block..<min(block + 32, hidden) { dst[row + o] = src[o * flat + column] }
                        }
                    }
                }
            }
        }
        var fc2Columns = [Float](repeating: 0, count: hidden * classes)
        for o in 0..<classes {
            for i in 0..<hidden { fc2Columns[i * classes + o] = fc2Weight[o * hidden + i] }
        }
        conv1 = PackedLayer(isa: isa, k: 25, n: c1, columns: convColumns(conv1Weight, out: c1, in: 1), bias: conv1Bias)
        conv2 = PackedLayer(isa: isa, k: 25 * c1, n: c2, columns: convColumns(conv2Weight, out: c2, in: c1), bias: conv2Bias)
        fc1 = PackedLayer(isa: isa, k: flat, n: hidden, columns: fc1Columns, bias: fc1Bias)
        fc2 = PackedLayer(isa: isa, k: hidden, n: classes, columns: fc2Columns, bias: fc2Bias)
        self.widths = widths
        self.classes = classes
    }

    /// The layers of a safetensors file holding this network with `widths` and `classes`.
    /// - Throws: `ModelLoadError` naming `path`: a tensor missing or of the wrong shape,
    ///   or a tensor this network does not have.
    init(file: Safetensors, path: String, widths: Widths, classes: Int, isa: dk_isa) throws(ModelLoadError) {
        let (c1, c2, hidden) = (widths.conv1, widths.conv2, widths.hidden)
        try self.init(
            conv1Weight: file.floats("conv1.weight", shape: [c1, 1, 5, 5], path: path),
            conv1Bias: file.floats("conv1.bias", shape: [c1], path: path),
            conv2Weight: file.floats("conv2.weight", shape: [c2, c1, 5, 5], path: path),
            conv2Bias: file.floats("conv2.bias", shape: [c2], path: path),
            fc1Weight: file.floats("fc1.weight", shape: [hidden, 49 * c2], path: path),
            fc1Bias: file.floats("fc1.bias", shape: [hidden], path: path),
            fc2Weight: file.floats("fc2.weight", shape: [classes, hidden], path: path),
            fc2Bias: file.floats("fc2.bias", shape: [classes], path: path),
            widths: widths, classes: classes, isa: isa)
        let unknown = Set(file.tensors.keys).subtracting(Self.tensorNames)
        guard unknown.isEmpty else {
            throw ModelLoadError(.wrongModel, path: path, "unexpected tensors \(unknown.sorted()): not this network")
        }
    }

    /// Logits for the inputs (bytes / 255, as the preprocessing contract says).
    func forward(_ inputs: [DigitInput]) -> [Float] {
        var x = [Float](repeating: 0, count: inputs.count * 784)
        for (n, input) in inputs.enumerated() {
            for i in 0..<784 { x[n * 784 + i] = Float(input.pixels[i]) / 255 }
        }
        return forward(x, count: inputs.count)
    }

    /// Logits for `count` inputs of 784 floats each.
    func forward(_ input: [Float], count: Int) -> [Float] {
        precondition(input.count == count * 784, "\(input.count) floats for \(count) inputs")
        if count == 0 { return [] }
        let (c1, c2, flat) = (widths.conv1, widths.conv2, 49 * widths.conv2)
        // the kernels write whole panels: a convolution's output pixels are its padded width apart
        let (stride1, stride2) = (conv1.paddedN, conv2.paddedN)
        var features = [Float](repeating: 0, count: count * flat)
        var padded1 = [Float](repeating: 0, count: 32 * 32)        // 28² + border 2, 1 channel
        var out1 = [Float](repeating: 0, count: 28 * 28 * stride1)  // HWC
        var padded2 = [Float](repeating: 0, count: 18 * 18 * c1)    // 14² + border 2, HWC
        var out2 = [Float](repeating: 0, count: 14 * 14 * stride2)
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
                                relu: true, into: &out1, at: y * 28 * stride1, ldc: stride1)
                }
            }
            Self.maxPool(out1, side: 28, stride: stride1, channels: c1, into: &padded2) { y, x in ((y + 2) * 18 + x + 2) * c1 }
            for y in 0..<14 {
                padded2.withUnsafeBufferPointer { a in
                    conv2.apply(rows: 14, a: a.baseAddress! + y * 18 * c1,
                                layout: dk_a_layout(row_stride: c1, segments: 5, segment_length: Int32(5 * c1),
                                                    segment_jump: 18 * c1),
                                relu: true, into: &out2, at: y * 14 * stride2, ldc: stride2)
                }
            }
            Self.maxPool(out2, side: 14, stride: stride2, channels: c2, into: &features) { y, x in n * flat + (y * 7 + x) * c2 }
        }
        let hiddenWidth = fc1.paddedN
        var hidden = [Float](repeating: 0, count: count * hiddenWidth)
        features.withUnsafeBufferPointer { a in
            fc1.apply(rows: count, a: a.baseAddress!,
                      layout: dk_a_layout(row_stride: flat, segments: 1, segment_length: Int32(flat), segment_jump: 0),
                      relu: true, into: &hidden, at: 0, ldc: hiddenWidth)
        }
        let width = fc2.paddedN
        var wide = [Float](repeating: 0, count: count * width)
        hidden.withUnsafeBufferPointer { a in
            fc2.apply(rows: count, a: a.baseAddress!,
                      layout: dk_a_layout(row_stride: hiddenWidth, segments: 1, segment_length: Int32(widths.hidden),
                                          segment_jump: 0),
                      relu: false, into: &wide, at: 0, ldc: width)
        }
        var logits = [Float](repeating: 0, count: count * classes)
        for i in 0..<count {
            for j in 0..<classes { logits[i * classes + j] = wide[i * width + j] }
        }
        return logits
    }

    /// 2×2 max-pooling of a side×side HWC image whose pixels are `stride` floats apart,
    /// keeping the first `channels`; `offset(y, x)` is where the channels of pooled pixel
    /// (y, x) go in `dst`. Inputs are already ReLU'd.
    private static func maxPool(_ src: [Float], side: Int, stride: Int, channels: Int, into dst: inout [Float],
                                offset: (Int, Int) -> Int) {
        let half = side / 2
        src.withUnsafeBufferPointer { s in
            dst.withUnsafeMutableBufferPointer { d in
                for y in 0..<half {
                    for x in 0..<half {
                        // the four pixels' channels, each a contiguous run
                        let a = s.baseAddress! + (2 * y * side + 2 * x) * stride, b = a + stride
                        let c = a + side * stride, e = c + stride
                        let out = d.baseAddress! + offset(y, x)
                        for k in 0..<channels { out[k] = max(max(a[k], b[k]), max(c[k], e[k])) }
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
