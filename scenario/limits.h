// Ranges of the timing parameters, chosen so that every duration the models compute from accepted
// values is finite and representable. The SystemC kernel counts picoseconds in 64 bits (about
// 1.8e16 ns, 213 days); a run may span at most kMaxSimulatedNs of that, and the models stop with
// an error, never a wrapped clock, when a workload would go past it (see scenarios/README.md,
// "Ranges that keep time finite").
#ifndef RBLNSIM_SCENARIO_LIMITS_H_
#define RBLNSIM_SCENARIO_LIMITS_H_

namespace rblnsim::scenario {

// Simulated time of one run, host and device: 10^15 ns, about 11.6 days.
inline constexpr double kMaxSimulatedNs = 1e15;

// One duration parameter (a latency, a queue step, a host cost, the command timeout): 1000 s.
inline constexpr double kMaxDurationNs = 1e12;

// Efficiencies scale an engine's configured peak rate: 0.1% to 400%. Below that a model is not
// describing an engine that works, and the durations it implies leave the representable range.
// Above 1 the card beats the configured peak (the published figure is low, or the model charges
// work the card does not do): calibrate may fit such a factor, and says so.
inline constexpr double kMinEfficiency = 1e-3;
inline constexpr double kMaxEfficiency = 4;

// Bandwidths: 1 MB/s to 1000 TB/s. At the floor, moving the largest tensor the loader accepts
// (1 TiB) takes 1.1e15 ns: still a representable kernel time, so the overrun is reported.
inline constexpr double kMinBandwidthBytesPerS = 1e6;
inline constexpr double kMaxBandwidthBytesPerS = 1e15;

// Device clock: 1 MHz to 10 GHz. Cycle counts divide by it.
inline constexpr double kMinClockGhz = 1e-3;
inline constexpr double kMaxClockGhz = 10.0;

// Clock epochs (host.steady_epoch, host.system_epoch), exact ns: at most 9e18 (year 2255), so an
// epoch plus a full run plus the largest clock offset still fits the int64 ns of a trace.
inline constexpr double kMaxEpochNs = 9e18;

// The fixed per-command overhead, in cycles: at most 10^9 (1000 s at the slowest clock).
inline constexpr double kMaxCommandOverheadCycles = 1e9;

}  // namespace rblnsim::scenario

#endif  // RBLNSIM_SCENARIO_LIMITS_H_
