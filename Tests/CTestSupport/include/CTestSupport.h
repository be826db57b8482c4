// Test-only helpers that need C.
#ifndef SCANREADER_CTESTSUPPORT_H
#define SCANREADER_CTESTSUPPORT_H

/// Drops (drop = 1) or restores (drop = 0) CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH in
/// the calling thread's effective set, so that a test running as root can see a
/// permission error. Returns 0 on success, -1 if the capabilities cannot be changed.
int sr_test_set_dac_override_dropped(int drop);

#endif
