// Scripts/bench.sh's start-up floor: a Swift program that only prints a line, built with
// fbauth's release flags (Scripts/build-release.sh). What `fbauth token` costs beyond it is
// fbauth's own work; what it costs beyond the C baseline is mostly the dynamic loader, libc and
// the Swift runtime starting up, which no Swift code can avoid.
print("floor")
