/* The one register-access layer of the hwprof firmware.
 *
 * On the target (RV32, bare metal) a handle's bus is NULL and accesses are volatile loads and
 * stores at base + offset. Host builds (tests) give the handle a bus whose callbacks reach a fake
 * register file or the C model, so the same driver sources run in both places. */
#ifndef HWPROF_MMIO_H
#define HWPROF_MMIO_H

#include <stdbool.h>
#include <stdint.h>

typedef struct hwprof_bus {
  uint32_t (*read32)(void *ctx, uint16_t offset);
  void (*write32)(void *ctx, uint16_t offset, uint32_t value);
} hwprof_bus_t;

/* A handle to one hwprof subsystem. */
typedef struct hwprof {
  uintptr_t base;          /* bus address of the register block */
  const hwprof_bus_t *bus; /* NULL: memory-mapped access at base */
  void *bus_ctx;
} hwprof_t;

static inline uint32_t hwprof_mmio_read32(const hwprof_t *h, uint16_t offset) {
  if (h->bus) return h->bus->read32(h->bus_ctx, offset);
  return *(const volatile uint32_t *)(h->base + offset);
}

static inline void hwprof_mmio_write32(const hwprof_t *h, uint16_t offset, uint32_t value) {
  if (h->bus) {
    h->bus->write32(h->bus_ctx, offset, value);
    return;
  }
  *(volatile uint32_t *)(h->base + offset) = value;
}

#endif /* HWPROF_MMIO_H */
