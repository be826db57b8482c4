// scanreader-bench: measurements behind the figures in the README. Run through the
// scripts beside this folder (they build with -c release).
import Foundation
import ImageCodecs

/// Median of a non-empty list.
func median(_ values: [Double]) -> Double {
    let s = values.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// JPEG files directly in `directory`, by content (FF D8 FF), sorted.
func jpegFiles(in directory: String) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return names.sorted().map { directory + "/" + $0 }.filter { path in
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        return ImageFormat.sniff(handle.readData(ofLength: 3)) == .jpeg
    }
}

/// Runs a program with posix_spawn (cheaper than Foundation's Process) and waits.
func spawnAndWait(_ argv: [String]) throws {
    var pid: pid_t = 0
    let cArgs = argv.map { strdup($0) } + [nil]
    defer { cArgs.forEach { free($0) } }
    guard posix_spawn(&pid, argv[0], nil, nil, cArgs, environ) == 0 else {
        throw CocoaError(.executableLoad)
    }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    guard status == 0 else { throw CocoaError(.executableRuntimeMismatch) }
}

/// Decode speed: ours in-process vs `djpeg -grayscale` (a process per file, output to
/// /dev/null), interleaved file by file so both see the same machine state.
func decodeBenchmark(directory: String, repeats: Int) throws {
    let files = jpegFiles(in: directory)
    guard !files.isEmpty else { print("no JPEG files in \(directory)"); exit(1) }
    var ours: [Double] = [], theirs: [Double] = []
    var megapixels: [Double] = []
    for file in files {
        var best = (Double.infinity, Double.infinity)
        for _ in 0..<repeats {
            var pixels = 0
            let t = try seconds {
                let loaded = try ImageLoader.load(path: file,
                                                  options: .init(appliesExifOrientation: false))
                pixels = loaded.image.pixels.count
            }
            best.0 = min(best.0, t)
            megapixels.append(Double(pixels) / 1e6)
            let u = try seconds {
                try spawnAndWait(["/usr/bin/djpeg", "-grayscale", "-outfile", "/dev/null", file])
            }
            best.1 = min(best.1, u)
        }
        ours.append(best.0)
        theirs.append(best.1)
    }
    let (a, b) = (median(ours), median(theirs))
    print(String(format: "files: %d JPEGs, median %.1f MP, best of %d runs each",
                 files.count, median(megapixels), repeats))
    print(String(format: "scanreader decode (in process): median %.1f ms/image", a * 1000))
    print(String(format: "djpeg -grayscale (process):     median %.1f ms/image", b * 1000))
    var spawn: [Double] = []
    for _ in 0..<20 { spawn.append(try seconds { try spawnAndWait(["/usr/bin/true"]) }) }
    print(String(format: "ratio ours / djpeg: %.3f", a / b))
    print(String(format: "(process start-up, /usr/bin/true: median %.2f ms; djpeg minus it: "
                 + "%.1f ms, ratio %.3f)", median(spawn) * 1000, (b - median(spawn)) * 1000,
                 a / (b - median(spawn))))
}

/// Decodes each file with us and with djpeg and reports the largest pixel difference.
func verifyAgainstDjpeg(directory: String) throws {
    var worst = 0
    for file in jpegFiles(in: directory) {
        let ours = try ImageLoader.load(path: file, options: .init(appliesExifOrientation: false))
        let process = Process()
        let pipe = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/djpeg")
        process.arguments = ["-grayscale", "-pnm", file]
        process.standardOutput = pipe
        try process.run()
        let pgm = [UInt8](pipe.fileHandleForReading.readDataToEndOfFile())
        process.waitUntilExit()
        let pixels = Array(pgm.suffix(ours.image.pixels.count))
        let diff = zip(pixels, ours.image.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
        worst = max(worst, diff)
        print("\(file): \(ours.image.width)x\(ours.image.height), max difference \(diff)")
    }
    print("largest difference from djpeg: \(worst)")
}

let args = CommandLine.arguments
switch args.count > 1 ? args[1] : "" {
case "decode" where args.count >= 3:
    try decodeBenchmark(directory: args[2], repeats: args.count > 3 ? Int(args[3]) ?? 3 : 3)
case "verify" where args.count >= 3:
    try verifyAgainstDjpeg(directory: args[2])
default:
    print("usage: scanreader-bench decode DIR [REPEATS]")
    exit(64)
}
