// <time.h> for device code, under NVRTC and clang alike: the types kernels name (clock_t for
// clock()'s result, as on Linux hosts); the host's time functions do not exist on the device.
#pragma once

typedef long clock_t;
// NVRTC's libcu++ (<cuda/std/ctime>) declares time_t as long long int itself.
typedef long long int time_t;
#ifndef CLOCKS_PER_SEC
#define CLOCKS_PER_SEC 1000000l
#endif
