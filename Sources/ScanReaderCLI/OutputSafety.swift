import Foundation
import ScanReader

/// Refuses outputs that would overwrite or add to the inputs.
enum OutputSafety {
    /// Throws when `out` is one of the input files (the same file, by device and inode,
    /// whatever path names it), or when `debugDir` is a folder named as input, lies inside
    /// one, or holds one of the input files.
    static func check(out: String?, debugDir: String?, arguments: [String], inputs: [InputEntry]) throws {
        let files = inputs.compactMap { entry -> String? in if case .file(let p) = entry { return p } else { return nil } }
        if let out, out != "-", let target = identity(out), InputFileKind.of(out) == .regular {
            if let clash = files.first(where: { identity($0) == target }) {
                throw CLIFailure(description: "\(out): --out is the input \(clash); refusing to overwrite it")
            }
        }
        if let debugDir {
            let debug = canonical(debugDir)
            for folder in arguments where InputFileKind.of(folder) == .directory {
                let root = canonical(folder)
                if debug == root || debug.hasPrefix(root.hasSuffix("/") ? root : root + "/") {
                    throw CLIFailure(description: "\(debugDir): --debug-dir is inside the input folder \(folder); its images would become inputs")
                }
            }
            if let clash = files.first(where: { canonical(($0 as NSString).deletingLastPathComponent.isEmpty ? "." : ($0 as NSString).deletingLastPathComponent) == debug }) {
                throw CLIFailure(description: "\(debugDir): --debug-dir holds the input \(clash); its drawings could overwrite inputs")
            }
        }
    }

    /// Device and inode of what `path` names (links followed), nil when nothing.
    private static func identity(_ path: String) -> [UInt64]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return [UInt64(info.st_dev), UInt64(info.st_ino)]
    }

    /// The absolute path with links resolved as far as it exists (a folder not made yet
    /// resolves through its existing parent).
    private static func canonical(_ path: String) -> String {
        let url = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath()
        return url.path
    }
}
