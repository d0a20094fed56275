#pragma once
// Definitions for backends/cpu/emu/numeric.hpp (included from there only).
#include "backends/cpu/emu/numeric.hpp"
