import DocumentImaging

/// A page's pieces (no quad held them: the whole photo is read) put into lines of glyphs of
/// one size, each line judged as a field is (`ReadRegion.readsAsWords`): a line whose
/// pieces the model mostly rejects or doubts is words, another sheet's print or the grain
/// of a desk, and its pieces are reported as rejected, but for numbers among the words
/// (`shortestNumber` sure digits side by side). A digit larger or smaller than the
/// grain beside it (one big digit on a note the detector missed) makes a line of its own
/// and is read as it was.
enum PageLines {
    /// Pieces share a line when they overlap up and down by at least this share of the
    /// shorter one's height (the line's: its tallest piece), as `FieldSegmentation` chains
    /// its lines.
    static let overlap = 0.5

    /// ... and neither is more than this many times as tall as the other: digits written on
    /// one line differ in height by less (a 1 against a 0, a descender), a digit written
    /// large beside the specks of a desk's grain by far more.
    static let heightRatio = 2.0

    /// The indices of `pieces` on lines that read as words: at least
    /// `ReadRegion.shortestWord` pieces with a prediction, more of them rejected or read
    /// under `ReadRegion.shownUnsureBelow` than read sure.
    /// Complexity: O(n × lines).
    static func wordPieces(_ pieces: [ReadRegion.Piece]) -> Set<Int> {
        let placed = pieces.indices.filter { pieces[$0].crop != nil && pieces[$0].prediction != nil }
            .sorted { pieces[$0].crop!.box.y < pieces[$1].crop!.box.y }
        var lines: [(y0: Int, y1: Int, tallest: Int, members: [Int])] = []
        for i in placed {
            let box = pieces[i].crop!.box
            if let k = lines.lastIndex(where: { line in
                let shorter = min(line.tallest, box.height), taller = max(line.tallest, box.height)
                let shared = min(line.y1, box.maxY) - max(line.y0, box.y)
                return Double(shared) >= overlap * Double(shorter) && Double(taller) <= heightRatio * Double(shorter)
            }) {
                lines[k].y0 = min(lines[k].y0, box.y)
                lines[k].y1 = max(lines[k].y1, box.maxY)
                lines[k].tallest = max(lines[k].tallest, box.height)
                lines[k].members.append(i)
            } else {
                lines.append((box.y, box.maxY, box.height, [i]))
            }
        }
        let isSure = { (i: Int) in ReadRegion.readsSure(pieces[i].prediction!) }
        var words = Set<Int>()
        for line in lines where line.members.count >= ReadRegion.shortestWord {
            let sure = line.members.filter(isSure).count
            guard line.members.count - sure > sure else { continue }
            // a number among the words ("Total 42"): sure digits side by side stay read
            let leftToRight = line.members.sorted { pieces[$0].crop!.box.x < pieces[$1].crop!.box.x }
            var run: [Int] = []
            for i in leftToRight + [-1] {
                if i >= 0, isSure(i) { run.append(i); continue }
                if run.count < shortestNumber { words.formUnion(run) }
                run = []
                if i >= 0 { words.insert(i) }
            }
        }
        return words
    }

    /// On a line of words, this many sure digits side by side are a number and stay read;
    /// a lone sure digit there is a letter or the grain (a word's l, a speck read as 1).
    static let shortestNumber = 2
}
