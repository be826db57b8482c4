import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What a signal leaves behind. SIGINT, SIGTERM and SIGHUP remove the unfinished output
/// file and exit 128 + the signal (130, 143, 129). A crash (SIGSEGV, SIGBUS, SIGILL,
/// SIGFPE, SIGABRT, SIGTRAP) keeps the records written so far: the unfinished file is
/// renamed `OUT.incomplete` (never mistaken for a finished output, never removed as
/// stale), the inputs being read are named on stderr (between two inputs, the one
/// started last), and the process dies of the signal (exit status 128 + the signal in a
/// shell).
///
/// The handlers only call async-signal-safe functions (`unlink`, `rename`, `write`,
/// `signal`, `raise`, `_exit`) on C strings prepared before the run starts.
enum SignalCleanup {
    /// Installs the handlers for a run writing `partial` (nil: stdout), to be renamed
    /// `destination.incomplete` on a crash; `inputs` are the paths in input order and
    /// `slots` the number of workers.
    static func install(partial: String?, destination: String?, inputs: [String], slots: Int) {
        state.partial = partial.map { strdup($0) }
        state.incomplete = destination.map { strdup($0 + ".incomplete") }
        state.names = inputs.map { strdup($0) }
        state.reading = UnsafeMutablePointer<Int>.allocate(capacity: max(1, slots))
        state.reading.initialize(repeating: -1, count: max(1, slots))
        state.started = UnsafeMutablePointer<Int>.allocate(capacity: max(1, slots))
        state.started.initialize(repeating: -1, count: max(1, slots))
        state.slots = max(1, slots)
        for sig in [SIGINT, SIGTERM, SIGHUP] { install(sig, handler: stopHandler) }
        for sig in [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP] { install(sig, handler: crashHandler) }
        // a parent may have started us with these blocked (the mask is inherited across
        // exec); the workers started after this inherit the unblocked mask
        var set = sigset_t()
        sigemptyset(&set)
        for sig in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&set, sig) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Worker `slot` starts (or, with -1, ends) reading input `index`.
    static func reading(_ index: Int, slot: Int) {
        guard slot >= 0, slot < state.slots else { return }
        state.reading[slot] = index
        if index >= 0 { state.started[slot] = index }
    }

    /// The output is complete (or abandoned): a signal from now on leaves no file behind.
    static func outputSettled() {
        state.partial = nil
        state.incomplete = nil
    }

    private static func install(_ sig: Int32, handler: @convention(c) (Int32) -> Void) {
        var action = Glibc.sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_ONSTACK
        sigaction(sig, &action, nil)
    }
}

/// Fixed storage the handlers read: filled before they are installed.
private struct SignalState {
    var partial: UnsafeMutablePointer<CChar>?
    var incomplete: UnsafeMutablePointer<CChar>?
    var names: [UnsafeMutablePointer<CChar>?] = []
    var reading = UnsafeMutablePointer<Int>.allocate(capacity: 1)
    var slots = 0
    /// Per worker, the input it started last (-1: none yet), each written only by its own
    /// worker: inputs start in order, so the largest is the one started last, named when a
    /// crash finds no worker reading, between one input and the next.
    var started = UnsafeMutablePointer<Int>.allocate(capacity: 1)
    var digits = UnsafeMutablePointer<CChar>.allocate(capacity: 4)
}

nonisolated(unsafe) private var state = SignalState()

private func say(_ text: UnsafePointer<CChar>?) {
    guard let text else { return }
    _ = write(2, text, strlen(text))
}

private func stopHandler(_ sig: Int32) {
    if let partial = state.partial { unlink(partial) }
    _exit(128 + sig)
}

private func crashHandler(_ sig: Int32) {
    say("scanreader: crashed (signal ")
    let digits = state.digits   // no allocation in a handler: a buffer made beforehand
    var n = Int(sig), k = 2
    digits[3] = 0
    repeat { digits[k] = CChar(48 + n % 10); n /= 10; k -= 1 } while n > 0 && k >= 0
    say(digits + k + 1)
    say(") while reading:")
    var named = false
    for slot in 0..<state.slots {
        let index = state.reading[slot]
        if index >= 0, index < state.names.count { say(" "); say(state.names[index]); named = true }
    }
    if !named {
        say(" none (between inputs")
        var last = -1
        for slot in 0..<state.slots { last = max(last, state.started[slot]) }
        if last >= 0, last < state.names.count { say("; the last started: "); say(state.names[last]) }
        say(")")
    }
    say("\n")
    if let partial = state.partial, let incomplete = state.incomplete, rename(partial, incomplete) == 0 {
        say("scanreader: the records written before it are kept in ")
        say(incomplete)
        say("\n")
    }
    // die of the signal itself, so the parent sees what happened (the default action
    // runs when this handler returns and the signal is unblocked)
    signal(sig, SIG_DFL)
    raise(sig)
}
