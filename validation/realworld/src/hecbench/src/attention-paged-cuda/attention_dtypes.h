#pragma once

#include "attention_generic.cuh"
#include "dtype_float32.cuh"
#include "dtype_bfloat16.cuh"
