internal import CBLAS

/// The network's weights and its forward pass: im2col + SGEMM convolutions, fused
/// bias + ReLU + 2×2 max-pool, two fully connected layers. PyTorch layouts: conv
/// weights (out, in, kh, kw), linear weights (out, in), flatten order C, H, W.
struct LeNetLayers: Sendable {
    static let tensorNames: Set<String> = [
        "conv1.weight", "conv1.bias", "conv2.weight", "conv2.bias",
        "fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias",
    ]
    /// Images per convolution GEMM: keeps the im2col buffer near 5 MB.
    static let convChunk = 8

    let conv1Weight: [Float], conv1Bias: [Float]
    let conv2Weight: [Float], conv2Bias: [Float]
    let fc1Weight: [Float], fc1Bias: [Float]
    let fc2Weight: [Float], fc2Bias: [Float]
    let classes: Int

    /// Logits for `count` inputs of 784 floats each.
    func forward(_ input: [Float], count: Int) -> [Float] {
        precondition(input.count == count * 784, "\(input.count) floats for \(count) inputs")
        if count == 0 { return [] }
        var features = [Float](repeating: 0, count: count * 3136)
        let chunk = min(Self.convChunk, count)   // batch 1 must not pay for 8
        var cols1 = [Float](repeating: 0, count: 25 * chunk * 784)
        var out1 = [Float](repeating: 0, count: 32 * chunk * 784)
        var pooled1 = [Float](repeating: 0, count: chunk * 32 * 196)
        var cols2 = [Float](repeating: 0, count: 800 * chunk * 196)
        var out2 = [Float](repeating: 0, count: 64 * chunk * 196)
        for start in stride(from: 0, to: count, by: chunk) {
            let b = min(chunk, count - start)
            input.withUnsafeBufferPointer { inp in
                im2col(UnsafeBufferPointer(rebasing: inp[(start * 784)...]), images: b,
                       channels: 1, side: 28, into: &cols1)
            }
            gemm(m: 32, n: b * 784, k: 25, a: conv1Weight, b: cols1, c: &out1)
            biasReluPool(out1, channels: 32, images: b, side: 28, bias: conv1Bias,
                         into: &pooled1) { n, c, p in n * 32 * 196 + c * 196 + p }
            pooled1.withUnsafeBufferPointer { pooled in
                im2col(pooled, images: b, channels: 32, side: 14, into: &cols2)
            }
            gemm(m: 64, n: b * 196, k: 800, a: conv2Weight, b: cols2, c: &out2)
            biasReluPool(out2, channels: 64, images: b, side: 14, bias: conv2Bias,
                         into: &features) { n, c, p in (start + n) * 3136 + c * 49 + p }
        }
        var hidden = [Float](repeating: 0, count: count * 1024)
        gemmTransposedB(m: count, n: 1024, k: 3136, a: features, b: fc1Weight, c: &hidden)
        hidden.withUnsafeMutableBufferPointer { h in
            for i in 0..<count {
                for j in 0..<1024 { h[i * 1024 + j] = max(0, h[i * 1024 + j] + fc1Bias[j]) }
            }
        }
        var logits = [Float](repeating: 0, count: count * classes)
        gemmTransposedB(m: count, n: classes, k: 1024, a: hidden, b: fc2Weight, c: &logits)
        for i in 0..<count {
            for j in 0..<classes { logits[i * classes + j] += fc2Bias[j] }
        }
        return logits
    }

    /// 5×5 patches with zero padding 2: row (c·25 + ky·5 + kx), column (n·side² + y·side + x).
    /// Each output row segment is one contiguous copy of a source row (plus zeros at the
    /// padded ends), so the loop is memory-bound rather than index-bound.
    private func im2col(_ src: UnsafeBufferPointer<Float>, images: Int, channels: Int,
                        side: Int, into cols: inout [Float]) {
        let area = side * side, width = images * area
        cols.withUnsafeMutableBufferPointer { buffer in
            let dst = buffer.baseAddress!, source = src.baseAddress!
            for c in 0..<channels {
                for ky in 0..<5 {
                    for kx in 0..<5 {
                        let row = dst + (c * 25 + ky * 5 + kx) * width
                        let x0 = max(0, 2 - kx), x1 = min(side, side + 2 - kx)
                        for n in 0..<images {
                            let image = source + (n * channels + c) * area
                            for y in 0..<side {
                                let out = row + n * area + y * side
                                let sy = y + ky - 2
                                if sy < 0 || sy >= side {
                                    out.update(repeating: 0, count: side)
                                    continue
                                }
                                if x0 > 0 { out.update(repeating: 0, count: x0) }
                                (out + x0).update(from: image + sy * side + x0 + kx - 2, count: x1 - x0)
                                if x1 < side { (out + x1).update(repeating: 0, count: side - x1) }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Adds the bias, applies ReLU and 2×2 max-pooling to GEMM output laid out
    /// (channel, n·side² + pos); `index(n, c, pooledPos)` places each result.
    private func biasReluPool(_ src: [Float], channels: Int, images: Int, side: Int,
                              bias: [Float], into dst: inout [Float],
                              index: (Int, Int, Int) -> Int) {
        let area = side * side, half = side / 2
        src.withUnsafeBufferPointer { s in
            dst.withUnsafeMutableBufferPointer { d in
                for c in 0..<channels {
                    let base = c * images * area
                    for n in 0..<images {
                        let image = base + n * area
                        for y in 0..<half {
                            for x in 0..<half {
                                let p = image + 2 * y * side + 2 * x
                                let m = max(max(s[p], s[p + 1]), max(s[p + side], s[p + side + 1]))
                                d[index(n, c, y * half + x)] = max(0, m + bias[c])
                            }
                        }
                    }
                }
            }
        }
    }

    /// C (m×n) = A (m×k) · B (k×n), row-major.
    private func gemm(m: Int, n: Int, k: Int, a: [Float], b: [Float], c: inout [Float]) {
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, Int32(m), Int32(n), Int32(k),
                    1, a, Int32(k), b, Int32(n), 0, &c, Int32(n))
    }

    /// C (m×n) = A (m×k) · Bᵀ where B is (n×k), row-major.
    private func gemmTransposedB(m: Int, n: Int, k: Int, a: [Float], b: [Float],
                                 c: inout [Float]) {
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, Int32(m), Int32(n), Int32(k),
                    1, a, Int32(k), b, Int32(k), 0, &c, Int32(n))
    }
}
