extension LineBoxes {
    /// The boxes of a straightened region (`LineBoxes.straightenedInk`) covering at most
    /// `largestShare` of it (a larger one is its own border): those each of its
    /// thresholds shows (`inks`, lowest threshold first), and those only its `ridges` show
    /// — a box drawn in a hairline of pale ink, blurred to a few grey levels below the
    /// paper, is a ridge along every side where no threshold keeps more than specks of it
    /// (a comb's thin outline). The ridges also trace every stroke's middle, so a box only
    /// they show is taken when it lies in no box a threshold found (there a digit's bar
    /// from side to side would cut the box in two) and when it is no glyph's loop: a 0's
    /// or an 8's bowl is a ridge "box" whose sides are dark ink at the highest threshold
    /// (`loopDarkShare`), where a drawn line that dark is found by the thresholds already.
    public func boxes(in inks: [BinaryImage], ridges: BinaryImage, largestShare: Double) -> [Box] {
        let largest = largestShare * Double(ridges.width * ridges.height)
        let onRegion = { (box: Box) in Double(box.outer.width * box.outer.height) <= largest }
        let thresholded = inks.flatMap { boxes(in: $0).filter(onRegion) }
        guard let darkest = inks.last else { return thresholded }
        let faint = boxes(in: ridges).filter { box in
            onRegion(box) && !thresholded.contains { $0.outer.contains(box.outer, margin: maximumThickness) }
                && Self.darkShare(of: box, in: darkest) < Self.loopDarkShare
        }
        return thresholded + faint
    }

    /// See `boxes(in:ridges:largestShare:)`: a box only the ridges show whose lines are ink at the
    /// highest threshold over this share of their length is a glyph's loop.
    public static let loopDarkShare = 0.5

    /// The share of the four lines' length (sampled along their middles, one pixel apart)
    /// where `ink` holds ink within a pixel of the middle.
    static func darkShare(of box: Box, in ink: BinaryImage) -> Double {
        let (top, bottom, left, right) = (Int(box.top), Int(box.bottom), Int(box.left), Int(box.right))
        guard left < right, top < bottom else { return 0 }
        let inkedNear = { (x: Int, y: Int) in (-1...1).contains { dy in (-1...1).contains { ink.isInk(x + $0, y + dy) } } }
        let samples = (left..<right).flatMap { [inkedNear($0, top), inkedNear($0, bottom)] }
            + (top..<bottom).flatMap { [inkedNear(left, $0), inkedNear(right, $0)] }
        return Double(samples.filter { $0 }.count) / Double(samples.count)
    }
}
