/* SPDX-License-Identifier: GPL-2.0 */
/*
 * insnrate.h - how much guest time one instruction takes, measured.
 *
 * Under QEMU's icount clocks guest time advances by 2^shift ns per
 * instruction executed (docs/clock.md): with shift=auto QEMU moves the
 * shift with host load and with what the guest does (a guest whose CPUs
 * never idle falls behind host time, and the shift rises), so a busy
 * stretch of N instructions lasts a different guest time from run to run.
 * Every report states the rate its run had.
 */
#ifndef __IDLESCOPE_LIVE_INSNRATE_H
#define __IDLESCOPE_LIVE_INSNRATE_H

#include <linux/types.h>

/**
 * insnrate_measure_ps() - guest time per instruction, now
 *
 * Times a loop of a known number of instructions on CLOCK_MONOTONIC, a
 * few times, and keeps the fastest (the one least disturbed by interrupts
 * and the other CPUs' instructions, which advance the same clock).  Takes
 * 0.6 ms of guest time at 1 ns per instruction, 0.6 s at QEMU's slowest.
 *
 * Return: picoseconds of guest time per instruction (1000 = 1 ns), 0 when
 * it cannot be measured on this machine.
 */
__u32 insnrate_measure_ps(void);

#endif /* __IDLESCOPE_LIVE_INSNRATE_H */
