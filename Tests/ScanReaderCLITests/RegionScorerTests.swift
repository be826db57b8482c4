import Foundation
import ImagingCore
@testable import ScanReader
import Testing

/// The region scorer on literal truth/result pairs.
@Suite("Region scorer")
struct RegionScorerTests {
    static let box: [[Double]] = [[100, 100], [300, 100], [300, 200], [100, 200]]   // mean side 150

    func field(_ corners: [[Double]], _ text: String, kind: String = "field") -> RegionResult {
        let digits = text.compactMap { $0.wholeNumberValue }.map {
            DigitResult(value: $0, confidence: 0.99, box: [0, 0, 1, 1], row: nil, col: nil)
        }
        return RegionResult(index: 0, kind: kind, corners: corners, text: text, confidence: 0.99, digits: digits,
                            rejected: [], grid: nil)
    }

    func result(_ regions: [RegionResult], orientation: Int = 1, width: Int = 400, height: Int = 300) -> ScanResult {
        ScanResult(file: "a.jpg", status: "ok", error: nil, width: width, height: height, orientation: orientation,
                   regions: regions)
    }

    func moved(_ corners: [[Double]], corner: Int, by d: Double) -> [[Double]] {
        var c = corners
        c[corner][0] += d
        return c
    }

    @Test("A field read where it is, as it is: found, exact, every digit right, nothing extra")
    func exactField() {
        let truth = PhotoTruth(file: "a.jpg", regions: [RegionTruth(kind: "field", corners: Self.box, text: "4071")])
        let s = RegionScorer.score(result([field(moved(Self.box, corner: 2, by: 1), "4071")]), against: truth)
        #expect(s.regions == [RegionOutcome(matched: 0, cornerError: 1.0 / 150, exact: true, digits: 4, digitsRight: 4)])
        #expect(s.extraRegions == 0 && s.orientationRight && !s.failed && s.badness == 0)
    }

    @Test("A shifted corner: found within the tolerance, missed beyond it",
          arguments: [(3.0, true), (7.0, true), (8.0, false), (30.0, false)])
    func shiftedCorner(shift: Double, found: Bool) {
        let truth = PhotoTruth(file: "a.jpg", regions: [RegionTruth(kind: "field", corners: Self.box, text: "12")])
        let s = RegionScorer.score(result([field(moved(Self.box, corner: 1, by: shift), "12")]), against: truth)
        // 5 % of the mean side (150 px) is 7.5 px
        #expect((s.regions[0].matched != nil) == found)
        #expect(s.regions[0].exact == found)
        // an unmatched region holding digits is an extra region
        #expect(s.extraRegions == (found ? 0 : 1))
        let loose = RegionScorer.score(result([field(moved(Self.box, corner: 1, by: shift), "12")]), against: truth,
                                       tolerance: 0.25)
        #expect(loose.regions[0].matched == 0)
    }

    @Test("A missing field: the other is still scored, the missing one's digits count as wrong")
    func missingField() {
        let second: [[Double]] = Self.box.map { [$0[0], $0[1] + 150] }
        let truth = PhotoTruth(file: "a.jpg", regions: [RegionTruth(kind: "field", corners: Self.box, text: "12"),
                                                        RegionTruth(kind: "field", corners: second, text: "345")])
        let s = RegionScorer.score(result([field(second, "345")]), against: truth)
        #expect(s.regions.map(\.matched) == [nil, 0])
        #expect(s.regions.map(\.digitsRight) == [0, 3])
        #expect(s.regions.map(\.digits) == [2, 3])
        #expect(s.badness == 1)
    }

    @Test("An extra region counts only when it holds digits")
    func extraRegion() {
        let truth = PhotoTruth(file: "a.jpg", regions: [RegionTruth(kind: "field", corners: Self.box, text: "7")])
        let elsewhere: [[Double]] = [[10, 10], [50, 10], [50, 40], [10, 40]]
        let withDigits = RegionScorer.score(result([field(Self.box, "7"), field(elsewhere, "11")]), against: truth)
        #expect(withDigits.extraRegions == 1)
        #expect(withDigits.regions[0].exact)
        let unsureOnly = RegionScorer.score(result([field(Self.box, "7"), field(elsewhere, "??")]), against: truth)
        #expect(unsureOnly.extraRegions == 0)
    }

    @Test("A wrong turn: orientation wrong, the region still found through the stored pixels",
          arguments: [6, 3, 8])
    func wrongTurn(orientation: Int) throws {
        // stored 400 x 300; the truth's upright frame is the stored pixels with `orientation` applied
        let o = try #require(ExifOrientation(rawValue: orientation))
        let uprightBox: [[Double]] = o.swapsAxes ? [[50, 100], [250, 100], [250, 180], [50, 180]] : Self.box
        let truth = PhotoTruth(file: "a.jpg", orientation: orientation,
                               regions: [RegionTruth(kind: "field", corners: uprightBox, text: "5")])
        // the reader applied no turn: its corners are in stored pixels, as pixel centres
        // (the turn maps pixel edges: a centre lies half a pixel in from them)
        let stored = uprightBox.map {
            let p = o.storedPoint(of: ($0[0] + 0.5, $0[1] + 0.5), storedWidth: 400, storedHeight: 300)
            return [p.x - 0.5, p.y - 0.5]
        }
        let s = RegionScorer.score(result([field(stored, "5")]), against: truth)
        #expect(!s.orientationRight)
        #expect(s.regions[0].matched == 0)
        let error = try #require(s.regions[0].cornerError)
        #expect(error < 1e-9)
        // read with the right turn, the same corners in the upright frame match too
        let w = o.swapsAxes ? 300 : 400, h = o.swapsAxes ? 400 : 300
        let right = RegionScorer.score(result([field(uprightBox, "5")], orientation: orientation, width: w, height: h),
                                       against: truth)
        #expect(right.orientationRight && right.regions[0].exact)
    }

    @Test("Corners are pixel centres through a turn: a half-turned photo's pixel (x, y) is (w - 1 - x, h - 1 - y)")
    func pixelCentresThroughTurn() throws {
        // the truth upright after a half turn (EXIF 3) of 400 x 300 stored pixels; the reader
        // read the stored pixels as they are
        let truth = PhotoTruth(file: "a.jpg", orientation: 3,
                               regions: [RegionTruth(kind: "field", corners: Self.box, text: "5")])
        let stored: [[Double]] = [[299, 199], [99, 199], [99, 99], [299, 99]]
        let s = RegionScorer.score(result([field(stored, "5")]), against: truth)
        #expect(try #require(s.regions[0].cornerError) < 1e-9)
        // a pixel off the centres' mapping (the edges' mapping, w - x) is a pixel off
        let edges: [[Double]] = [[300, 200], [100, 200], [100, 100], [300, 100]]
        let off = RegionScorer.score(result([field(edges, "5")]), against: truth)
        #expect(abs(try #require(off.regions[0].cornerError) - 2.0.squareRoot() / 150) < 1e-9)
    }

    @Test("Corners listed from another corner (a document upside down) still match")
    func cyclicCorners() {
        let truth = PhotoTruth(file: "a.jpg", regions: [RegionTruth(kind: "field", corners: Self.box, text: "9")])
        let rotated = Array(Self.box[2...] + Self.box[..<2])
        let s = RegionScorer.score(result([field(rotated, "9")]), against: truth)
        #expect(s.regions[0].matched == 0)
    }

    @Test("A document lying turned in an upright photo: the right orientation is the turn that reads it upright",
          arguments: [(0, 1), (1, 8), (2, 3), (3, 6)])
    func contentTurn(quarterTurns: Int, expected: Int) {
        // the box's corners listed from the corner that a q-quarter clockwise turn of the
        // document puts at its top-left: its top edge then points right, down, left, up
        var corners = Self.box
        let order = [[0, 1, 2, 3], [1, 2, 3, 0], [2, 3, 0, 1], [3, 0, 1, 2]][quarterTurns]
        corners = order.map { Self.box[$0] }
        let truth = PhotoTruth(file: "a.jpg", orientation: 1, regions: [RegionTruth(kind: "field", corners: corners, text: "9")])
        #expect(truth.readingOrientation == expected)
        for reported in [1, 3, 6, 8] {
            let s = RegionScorer.score(result([field(corners, "9")], orientation: reported), against: truth)
            #expect(s.orientationRight == (reported == expected))
        }
        // a photo stored sideways (EXIF 6) holding a document turned a half turn: 6 then 180°
        let sideways = PhotoTruth(file: "a.jpg", orientation: 6, regions: [RegionTruth(kind: "field", corners: order.map { Self.box[$0] }, text: "9")])
        #expect(sideways.readingOrientation == ExifOrientation.right.followed(byClockwiseQuarterTurns: (4 - quarterTurns) % 4).rawValue)
    }

    @Test("A document on a diagonal reads upright after either nearest quarter turn; one off it after one",
          arguments: [(44.9, [1, 8]), (44.0, [1, 8]), (46.2, [8, 1]), (135.5, [3, 8]), (-44.9, [1, 6]),
                      (43.0, [1]), (47.0, [8]), (30.0, [1]), (0.0, [1])])
    func diagonalDocument(degrees: Double, accepted: [Int]) {
        // a square document turned `degrees` clockwise about its centre (y points down)
        let a = degrees * Double.pi / 180, c = (200.0, 150.0), r = 80.0
        let corners = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)].map { u, v in
            [c.0 + r * (u * cos(a) - v * sin(a)), c.1 + r * (u * sin(a) + v * cos(a))]
        }
        let truth = PhotoTruth(file: "a.jpg", orientation: 1, regions: [RegionTruth(kind: "field", corners: corners, text: "9")])
        #expect(truth.readingOrientations == accepted)
        #expect(truth.readingOrientation == accepted[0])
        for reported in [1, 3, 6, 8] {
            let s = RegionScorer.score(result([field(corners, "9")], orientation: reported), against: truth)
            #expect(s.orientationRight == accepted.contains(reported), "reported \(reported)")
        }
    }

    @Test("Grids: cells compared by position; a candidate cell is right when read empty")
    func gridCells() {
        let truth = PhotoTruth(file: "a.jpg", regions: [RegionTruth(kind: "grid", corners: Self.box, text: "1.?23",
                                                                    rows: 2, cols: 2, cells: ["1", "", "?", "23"])])
        func grid(_ texts: [String]) -> RegionResult {
            var r = field(Self.box, texts.map { $0.isEmpty ? "." : $0 }.joined(), kind: "grid")
            r.grid = GridResult(rows: 2, cols: 2, cells: texts.enumerated().map {
                CellResult(row: $0.offset / 2, col: $0.offset % 2, text: $0.element, confidence: 0.9)
            })
            return r
        }
        let right = RegionScorer.score(result([grid(["1", "", "", "23"])]), against: truth)
        #expect(right.regions[0].exact && right.regions[0].digits == 3 && right.regions[0].digitsRight == 3)
        let noted = RegionScorer.score(result([grid(["1", "", "7", "3"])]), against: truth)
        #expect(!noted.regions[0].exact && noted.regions[0].digitsRight == 2)
        // read as a field: the digit sequence decides
        let asField = RegionScorer.score(result([field(Self.box, "123")]), against: truth)
        #expect(asField.regions[0].exact)
    }

    @Test("A page region matches the reader's page whatever its corners; never a field")
    func page() {
        let whole: [[Double]] = [[0, 0], [400, 0], [400, 300], [0, 300]]
        let truth = PhotoTruth(file: "a.jpg", regions: [RegionTruth(kind: "page", corners: whole, text: "58")])
        let s = RegionScorer.score(result([field([[0, 0], [399, 0], [399, 299], [0, 299]], "58", kind: "page")]),
                                   against: truth)
        #expect(s.regions[0].exact)
        let asField = RegionScorer.score(result([field(whole, "58")]), against: truth)
        #expect(asField.regions[0].matched == nil && asField.extraRegions == 1)
    }

    @Test("A failed read: nothing found, orientation not right")
    func failed() {
        let truth = PhotoTruth(file: "a.jpg", regions: [RegionTruth(kind: "field", corners: Self.box, text: "1")])
        let s = RegionScorer.score(.failure(file: "a.jpg", code: "corrupt_image", message: "bad"), against: truth)
        #expect(s.failed && !s.orientationRight && s.regions[0].matched == nil)
    }

    @Test("The table groups by type, variant and condition")
    func table() {
        var table = RegionScoreTable()
        let a = PhotoTruth(file: "a.jpg", type: "form", variants: ["printed"], conditions: ["blur"],
                           regions: [RegionTruth(kind: "field", corners: Self.box, text: "1")])
        let b = PhotoTruth(file: "b.jpg", type: "sticky-note", conditions: ["blur", "noise"],
                           regions: [RegionTruth(kind: "field", corners: Self.box, text: "2")])
        table.add(RegionScorer.score(result([field(Self.box, "1")]), against: a))
        table.add(RegionScorer.score(result([]), against: b))
        #expect(table.total.found == 1 && table.total.regions == 2 && table.total.photos == 2)
        #expect(table.tally { $0.conditions?.contains("blur") ?? false }.photos == 2)
        let md = table.markdown()
        #expect(md.contains("| **all** | 2 | 50.0 % (1/2) | 50.0 % | 50.0 % | 0.0 % | 100.0 % |"))
        #expect(md.contains("| type: **form** | 1 | 100.0 % (1/1) |"))
        #expect(md.contains("| form / printed | 1 |"))
        #expect(md.contains("| noise | 1 | 0.0 % (0/1) |"))
    }
}

/// Reading truth files.
@Suite("Region truth files")
struct RegionTruthFileTests {
    func load(_ text: String) throws(TruthFileError) -> [PhotoTruth] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("truth-\(UUID()).jsonl").path
        FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try PhotoTruth.load(path: path)
    }

    @Test("Lines decode; orientation defaults to 1; blank lines are skipped")
    func decodes() throws {
        let t = try load("""
            {"file":"a.jpg","regions":[{"kind":"field","corners":[[0,0],[1,0],[1,1],[0,1]],"text":"12"}]}

            {"file":"b.jpg","orientation":6,"tagged":false,"regions":[]}
            """)
        #expect(t.count == 2 && t[0].orientation == 1 && t[1].orientation == 6 && t[1].tagged == false)
        #expect(t[0].regions[0].text == "12")
    }

    @Test("A bad line is named with its number and cause",
          arguments: [
            (#"{"file":"a.jpg"}"#, "not a truth line"),
            (#"{"file":"a.jpg","regions":[{"kind":"box","corners":[[0,0],[1,0],[1,1],[0,1]],"text":""}]}"#, "kind \"box\""),
            (#"{"file":"a.jpg","regions":[{"kind":"grid","corners":[[0,0],[1,0],[1,1],[0,1]],"text":"","rows":2,"cols":2,"cells":["1"]}]}"#, "1 cells do not make 2 × 2"),
            (#"{"file":"a.jpg","orientation":9,"regions":[]}"#, "orientation 9"),
          ])
    func badLine(line: String, cause: String) {
        do {
            _ = try load("{\"file\":\"ok.jpg\",\"regions\":[]}\n" + line + "\n")
            Issue.record("accepted \(line)")
        } catch {
            #expect(error.line == 2)
            #expect(error.description.contains(cause), "\(error.description)")
        }
    }
}
