/* The one result convention of hwprof's C code, shared by the C model (cmodel/) and the drivers
 * (sw/): 0 for success, a negative code for each error. */
#ifndef HWPROF_RESULT_H
#define HWPROF_RESULT_H

typedef enum {
  kHwprofOk = 0,
  kHwprofBadArg = -1,   /* an argument or configuration is out of range; nothing was written */
  kHwprofTimeout = -2,  /* a bounded poll ran out */
  kHwprofNoDevice = -3, /* the ID register does not read 'HWPF' */
  kHwprofBusy = -4,     /* a cache command is still running */
  kHwprofLinkLost = -5, /* the pir's link stack lost frames (LINK.ERR): counts since are not exact */
  kHwprofPathLost = -7, /* the pir's path stack lost entries (PATH_STACK.ERR): path counts since are not exact */
  kHwprofBadState = -6, /* data read back is not what the rules allow (a profiling period ran too long, counters not armed as set) */
} hwprof_result_t;

#define HWPROF_WARN_UNUSED __attribute__((warn_unused_result))

#endif /* HWPROF_RESULT_H */
