extension InkCrop {
    /// The crop's ink turned `quarterTurns` quarter turns clockwise, with its width and
    /// height (swapped by an odd number of turns), as the model's input takes it.
    public func turnedInk(quarterTurns: Int) -> (ink: [UInt8], width: Int, height: Int) {
        var (ink, w, h) = (self.ink, box.width, box.height)
        for _ in 0..<(((quarterTurns % 4) + 4) % 4) {
            // clockwise: the new (x, y) is the old (y, h − 1 − x)
            var turned = [UInt8](repeating: 0, count: w * h)
            for y in 0..<w { for x in 0..<h { turned[y * h + x] = ink[(h - 1 - x) * w + y] } }
            (ink, w, h) = (turned, h, w)
        }
        return (ink, w, h)
    }
}
