/* Synchronous traps and their return (docs/cpu-model.md): ecall and ebreak (a bare one, not the
 * semihosting sequence) taken into a machine-mode handler that reads mcause, mepc and mtval, steps
 * mepc past the instruction and returns with mret; between them, ordinary work whose branches the
 * traps interrupt. The handler's CSR values and the work's result make the checksum, and QEMU runs
 * the same program (make test: qemu-check-workloads), so traps, the handler's instructions and mret
 * are compared instruction by instruction with an independent implementation. */
#include "common.h"

static volatile uint32_t trap_log; /* a hash of (mcause, mepc offset, mtval) of every trap */
static volatile uint32_t traps[16];

__attribute__((interrupt("machine"), noinline)) static void handler(void) {
  uint32_t cause, epc, tval;
  __asm__ volatile("csrr %0, mcause" : "=r"(cause));
  __asm__ volatile("csrr %0, mepc" : "=r"(epc));
  __asm__ volatile("csrr %0, mtval" : "=r"(tval));
  traps[cause & 15u]++;
  trap_log = wl_mix(trap_log, cause);
  trap_log = wl_mix(trap_log, epc & 0xffffu);
  trap_log = wl_mix(trap_log, cause == 3u ? 0u : tval); /* ebreak's mtval: the pc or 0, by implementation */
  __asm__ volatile("csrw mepc, %0" ::"r"(epc + 4u));
}

__attribute__((noinline)) static uint32_t syscall(uint32_t a) {
  register uint32_t a0 __asm__("a0") = a;
  __asm__ volatile("ecall" : "+r"(a0)::"memory");
  return a0;
}

int main(void) {
  __asm__ volatile("csrw mtvec, %0" ::"r"((uint32_t)(uintptr_t)&handler));
  uint32_t h = 0;
  for (uint32_t i = 0; i < 3000; i++) {
    uint32_t x = wl_rand();
    if (x & 1u) h = wl_mix(h, syscall(x)); /* an ecall in one direction of a branch */
    else if ((x & 6u) == 0) __asm__ volatile("ebreak" ::: "memory");
    else h = wl_mix(h, x >> 3);
    for (uint32_t k = 0; k < (x & 7u); k++) h = wl_mix(h, k); /* a short loop between traps */
  }
  __asm__ volatile("csrw mtvec, zero");
  const uint32_t ecalls = traps[11], ebreaks = traps[3];
  printf("traps: %lu ecalls, %lu ebreaks, log 0x%08lx\n", (unsigned long)ecalls, (unsigned long)ebreaks,
         (unsigned long)trap_log);
  const int ok = ecalls > 1000 && ebreaks > 200 && ecalls + ebreaks < 3000 && traps[2] == 0;
  return wl_finish("traps", wl_mix(h, trap_log), ok);
}
