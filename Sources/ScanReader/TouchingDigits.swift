import DigitClassifier
import DocumentImaging

/// Printed digits set tight touch ("90" as one piece of ink), and the model rejects the
/// piece: it is no single digit. A rejected piece of a field, a page or a table's number
/// wider than a digit (`widestDigit`) is cut into 2, 3, … glyphs side by side
/// (`InkCrop.split`) and read again; the cut whose every part the model reads as a digit
/// it is sure of replaces the piece. A word or a printed label cut the same way leaves a
/// letter's part the model rejects or doubts, so it stays rejected.
enum TouchingDigits {
    /// Every part of an accepted cut must be read as a digit with at least this
    /// probability: a cut in the wrong place leaves half glyphs the model doubts.
    static let partConfidence: Float = 0.9

    /// A piece is tried cut when wider than this share of its height: the widest single
    /// digits (a 0 or 4 in a wide face) come to about three quarters of it.
    static let widestDigit = 0.8

    /// The narrowest part tried, as a share of the piece's height (a printed "1" with its
    /// foot); at most `mostParts` parts.
    static let narrowestPart = 0.4
    /// See `narrowestPart`.
    static let mostParts = 8

    /// True when a grid's cells are read as numbers (`DigitSegmenter.gridCellDigits`: a
    /// table of numbers): some cell holds more than one piece. A puzzle's cell holds one
    /// digit and is never cut.
    static func readsNumbers(_ pieces: [ReadRegion.Piece]) -> Bool {
        zip(pieces, pieces.dropFirst()).contains { a, b in a.row != nil && a.row == b.row && a.col == b.col }
    }

    /// True when a grid's cells hold numbers, some set tight: at least three hold a piece
    /// that `cut` into sure digits, and those with the `apart` cells (digits side by side,
    /// `DigitSegmenter.gridCells`) make `DigitSegmenter.numberCellShare` of its inked cells
    /// — the segmenter's own rule for a table of numbers, counting numbers set tight too.
    static func readsTouchingNumbers(_ pieces: [ReadRegion.Piece], cut: Int, apart: Int = 0) -> Bool {
        cut >= 3 && Double(cut + apart) >= DigitSegmenter.numberCellShare * Double(inkedCells(pieces) + apart)
    }

    /// True when at least half of a grid's inked cells hold a `wide` rejected piece.
    static func mostlyWide(_ pieces: [ReadRegion.Piece], wide: Int) -> Bool {
        2 * wide >= inkedCells(pieces)
    }

    /// The number of a grid's cells holding a piece.
    static func inkedCells(_ pieces: [ReadRegion.Piece]) -> Int {
        Set(pieces.filter { $0.crop != nil }.compactMap { p in p.row.flatMap { r in p.col.map { [r, $0] } } }).count
    }

    /// `pieces` (per region, with predictions) with each rejected wide piece of a field, a
    /// page or a table of numbers replaced by its parts when a cut reads as sure digits.
    /// The cuts are read in rounds (`readingCuts`). A grid found a table of numbers
    /// only now (its numbers mostly set tight) also has its `apart` cells (per region: the
    /// cells the segmenter read empty holding digits side by side) read as small fields
    /// (`DigitSegmenter.numberCellDigits`), in one more batch.
    static func splitting(_ pieces: [[ReadRegion.Piece]], of regions: [LaidOutRegion], apart: [[Int]] = [],
                          segmenter: DigitSegmenter = DigitSegmenter(),
                          classifier: DigitClassifier) -> [[ReadRegion.Piece]] {
        let apart = apart.isEmpty ? pieces.map { _ in [Int]() } : apart
        // each candidate: where it is, and its cuts (parts per cut)
        var candidates: [(region: Int, piece: Int, cuts: [[InkCrop]])] = []
        let isWide = { (piece: ReadRegion.Piece) -> Bool in
            guard let crop = piece.crop, piece.prediction?.isRejected == true else { return false }
            return Double(crop.box.width) > widestDigit * Double(crop.box.height)
        }
        for (r, list) in pieces.enumerated() {
            // a grid not known to read numbers is tried only when most of its inked
            // cells hold a wide rejected piece, as a table of numbers set tight does (a
            // puzzle's cells hold one digit each, a few of them a blur of candidates)
            if regions[r].kind == .grid, !readsNumbers(list), !mostlyWide(list, wide: list.filter(isWide).count) {
                continue
            }
            for (i, piece) in list.enumerated() {
                guard let crop = piece.crop, isWide(piece) else { continue }
                let most = min(mostParts, Int(Double(crop.box.width) / (narrowestPart * Double(crop.box.height))))
                guard most >= 2 else { continue }
                let cuts = (2...most).compactMap { crop.split(into: $0) }
                guard !cuts.isEmpty else { continue }
                candidates.append((r, i, cuts))
            }
        }
        guard !candidates.isEmpty else { return pieces }
        let read = readingCuts(candidates.map(\.cuts), classifier: classifier)
        // each candidate's best cut: the one whose least sure part is surest
        let bests = candidates.indices.map { c -> (parts: [InkCrop], predictions: [DigitPrediction], least: Float)? in
            var best: (parts: [InkCrop], predictions: [DigitPrediction], least: Float)?
            for (cut, parts) in zip(candidates[c].cuts, read[c]) where parts.count == cut.count {
                let least = parts.map(\.confidence).min()!
                if best == nil || least > best!.least { best = (cut, parts, least) }
            }
            return best
        }
        // a grid not yet known to read numbers is a table of numbers when enough of its
        // inked cells hold touching digits (as `DigitSegmenter.gridCellDigits` decides
        // for digits apart); a puzzle's few touching candidates stay rejected
        var cutsPerRegion = [Int](repeating: 0, count: pieces.count)
        for (candidate, best) in zip(candidates, bests) where best != nil { cutsPerRegion[candidate.region] += 1 }
        let knownTables = pieces.indices.map { r in regions[r].kind != .grid || readsNumbers(pieces[r]) }
        let splits = pieces.indices.map { r in
            knownTables[r] || readsTouchingNumbers(pieces[r], cut: cutsPerRegion[r], apart: apart[r].count)
        }
        var result = pieces
        // replaced from the last piece back, so earlier indices stay valid
        for (candidate, best) in zip(candidates, bests).reversed() where splits[candidate.region] {
            guard let best else { continue }
            let whole = result[candidate.region][candidate.piece]
            let parts = zip(best.parts, best.predictions).map { crop, prediction in
                ReadRegion.Piece(crop: crop, row: whole.row, col: whole.col, input: nil, prediction: prediction)
            }
            result[candidate.region].replaceSubrange(candidate.piece...candidate.piece, with: parts)
        }
        return readingApartCells(result, of: regions, cells: pieces.indices.map { r in
            splits[r] && !knownTables[r] ? apart[r] : []
        }, segmenter: segmenter, classifier: classifier)
    }

    /// Per candidate and cut, its parts read, left to right, as far as they read as sure
    /// digits (not rejected, `partConfidence`): a cut's parts are read in rounds, part j of
    /// every cut whose parts before it all did (one classifier batch per round), and a cut
    /// with a part that does not is given up. A cut is read whole exactly when every part
    /// passes, as asking all its parts at once would tell; a word cut into 2–8 parts fails at
    /// its first letter and costs one read, not up to eight.
    static func readingCuts(_ candidates: [[[InkCrop]]], classifier: DigitClassifier) -> [[[DigitPrediction]]] {
        var read = candidates.map { cuts in cuts.map { _ in [DigitPrediction]() } }
        var alive = candidates.indices.flatMap { c in candidates[c].indices.map { (c, $0) } }
        var part = 0
        while !alive.isEmpty {
            let predictions = classifier.classify(alive.map { candidates[$0.0][$0.1][part].modelInput })
            var next: [(Int, Int)] = []
            for ((c, k), p) in zip(alive, predictions) {
                read[c][k].append(p)
                guard !p.isRejected, p.confidence >= partConfidence else {
                    read[c][k] = []   // given up: no reading of it is used
                    continue
                }
                if part + 1 < candidates[c][k].count { next.append((c, k)) }
            }
            alive = next
            part += 1
        }
        return read
    }

    /// `pieces` with each of `cells` (per region, row-major cell indices of a grid read as a
    /// table of numbers) read as a small field: its empty place replaced by its digits, the
    /// touching ones among them cut apart (`splitting` once more).
    static func readingApartCells(_ pieces: [[ReadRegion.Piece]], of regions: [LaidOutRegion], cells: [[Int]],
                                  segmenter: DigitSegmenter, classifier: DigitClassifier) -> [[ReadRegion.Piece]] {
        var found: [(region: Int, row: Int, col: Int, crops: [InkCrop])] = []
        for (r, list) in cells.enumerated() {
            guard let ruling = regions[r].ruling else { continue }
            for k in list {
                let crops = segmenter.numberCellDigits(gray: regions[r].gray, binary: regions[r].binary,
                                                       faint: regions[r].faint, ruling: ruling, cell: k)
                if !crops.isEmpty { found.append((r, k / ruling.columnCount, k % ruling.columnCount, crops)) }
            }
        }
        guard !found.isEmpty else { return pieces }
        var predictions = classifier.classify(found.flatMap { $0.crops.map(\.modelInput) })[...]
        var result = pieces
        for cell in found {
            let read = Array(predictions.prefix(cell.crops.count))
            predictions = predictions.dropFirst(cell.crops.count)
            guard let place = result[cell.region].firstIndex(where: {
                $0.row == cell.row && $0.col == cell.col && $0.crop == nil
            }) else { continue }
            let parts = zip(cell.crops, read).map { crop, prediction in
                ReadRegion.Piece(crop: crop, row: cell.row, col: cell.col, input: nil, prediction: prediction)
            }
            result[cell.region].replaceSubrange(place...place, with: parts)
        }
        // their numbers set tight, cut apart as any table's (these grids now read numbers)
        let tables = Set(found.map(\.region)).sorted()
        let cut = splitting(tables.map { result[$0] }, of: tables.map { regions[$0] }, classifier: classifier)
        for (k, r) in tables.enumerated() { result[r] = cut[k] }
        return result
    }
}
