import Foundation

/// Memory shared by the images being decoded at once: each decode reserves what it will
/// need (file bytes, the decoder's buffers, the output) before the decoder allocates, and
/// gives it back when done. A decode that does not fit waits for others to finish, in
/// arrival order; one that could never fit is refused (`ImageLoadError.Code.tooLarge`).
/// So however many images are read in parallel, decoding holds at most `capacity` bytes.
///
/// Thread-safe.
public final class MemoryBudget: @unchecked Sendable {
    /// The bytes all reservations together may hold.
    public let capacity: Int
    private let condition = NSCondition()
    private var used = 0
    private var highWater = 0
    private var nextTicket = 0
    private var serving = 0

    /// A budget of `capacity` bytes (at least 1).
    public init(capacity: Int) { self.capacity = max(1, capacity) }

    /// Takes `bytes`, waiting until they are free and every earlier request was served.
    /// Returns false at once when `bytes` exceeds the whole capacity.
    public func reserve(_ bytes: Int) -> Bool {
        guard bytes <= capacity else { return false }
        condition.lock()
        defer { condition.unlock() }
        let ticket = nextTicket
        nextTicket += 1
        while serving != ticket || used + bytes > capacity { condition.wait() }
        serving += 1
        used += bytes
        highWater = max(highWater, used)
        condition.broadcast()
        return true
    }

    /// Gives back bytes taken by `reserve`.
    public func release(_ bytes: Int) {
        condition.lock()
        used -= bytes
        condition.broadcast()
        condition.unlock()
    }

    /// The most bytes held at once so far.
    public var peak: Int {
        condition.lock()
        defer { condition.unlock() }
        return highWater
    }

    /// The bytes held now.
    public var inUse: Int {
        condition.lock()
        defer { condition.unlock() }
        return used
    }
}
