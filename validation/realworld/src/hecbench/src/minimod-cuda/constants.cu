#include "constants.h"

// Constants
const float _fmax = 25.0f;
const float vmin = 1500.f;
const float vmax = 4500.f;
const float cfl = 0.8f;
