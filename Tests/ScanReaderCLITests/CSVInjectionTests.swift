@testable import ScanReader
import Testing

/// Text cells a spreadsheet would run as formulas are made inert; numbers are not touched.
@Suite("CSV injection")
struct CSVInjectionTests {
    @Test("A leading =, +, -, @, tab or carriage return gets a quote mark before it",
          arguments: ["=SUM(A1)", "+1", "-x.jpg", "@cmd", "\tx", "\rx"])
    func neutralised(text: String) {
        #expect(ResultWriter.inert(text) == "'" + text)
    }

    @Test("Other text is left as it is", arguments: ["photos/a.jpg", "1234", "", "'quoted", " =x"])
    func untouched(text: String) {
        #expect(ResultWriter.inert(text) == text)
    }

    @Test("In a row: the file and the error message are made inert, a negative corner is not")
    func row() {
        let failed = ScanResult.failure(file: "=HYPERLINK(\"x\").jpg", code: "corrupt_image", message: "=HYPERLINK: bad")
        let cells = ResultWriter.csvRows(failed).split(separator: ",", omittingEmptySubsequences: false)
        #expect(cells.first == "\"'=HYPERLINK(\"\"x\"\").jpg\"")
        #expect(ResultWriter.csvRows(failed).hasSuffix("'=HYPERLINK: bad\r\n"))
        let region = RegionResult(index: 0, kind: "field", corners: [[-1, 2], [10, 2], [10, 8], [-1, 8]], text: "7",
                                  confidence: 0.9, digits: [], rejected: [], grid: nil)
        let read = ScanResult(file: "-a.jpg", status: "ok", error: nil, width: 10, height: 10, orientation: 1,
                              regions: [region])
        #expect(ResultWriter.csvRows(read) == "'-a.jpg,0,field,7,0.9,-1,2,10,2,10,8,-1,8,,,ok,,\r\n")
    }
}
