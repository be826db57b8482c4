#include "CTestSupport.h"

#ifdef __linux__
#include <linux/capability.h>
#include <sys/syscall.h>
#include <unistd.h>

// Capabilities are per thread on Linux: this touches the calling thread only.
int sr_test_set_dac_override_dropped(int drop) {
    struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct data[2];
    if (syscall(SYS_capget, &header, data) != 0) return -1;
    unsigned mask = (1u << CAP_DAC_OVERRIDE) | (1u << CAP_DAC_READ_SEARCH);
    if (drop) data[0].effective &= ~mask;
    else data[0].effective |= (data[0].permitted & mask);
    return syscall(SYS_capset, &header, data) == 0 ? 0 : -1;
}
#else
int sr_test_set_dac_override_dropped(int drop) { (void)drop; return 0; }
#endif
