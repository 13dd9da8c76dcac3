template <typename scalar_t, typename cache_t, Fp8KVCacheDataType kv_dt>
__global__ void reshape_and_cache_kernel(
    const scalar_t* __restrict__ key,    // [num_tokens, num_heads, head_size]
    const scalar_t* __restrict__ value,  // [num_tokens, num_heads, head_size]
    cache_t* __restrict__ key_cache,     // [num_blocks, num_heads, head_size/x, block_size, x]
    cache_t* __restrict__ value_cache,   // [num_blocks, num_heads, head_size,  block_size]
    const int64_t* __restrict__ slot_mapping,  // [num_tokens]
    const int key_stride, const int value_stride, const int num_heads,
    const int head_size, const int block_size, const int x,
    const float k_scale, const float v_scale)
{
  const int64_t token_idx = blockIdx.x;
  const int64_t slot_idx = slot_mapping[token_idx];
  if (slot_idx < 0) return;

  const int64_t block_idx = slot_idx / block_size;
  const int64_t block_offset = slot_idx % block_size;
  const int h_block_count = head_size / x;  // head block count

  for (int h_block_idx = threadIdx.x; h_block_idx < num_heads * h_block_count;
           h_block_idx += blockDim.x) {

    const int head_idx = h_block_idx / h_block_count;
    const int h_block = h_block_idx % h_block_count;

    const scalar_t* __restrict__ key_src =
        key + token_idx * key_stride + head_idx * head_size + h_block * x;
    const int64_t src_value_start =
        token_idx * value_stride + head_idx * head_size + h_block * x;

    cache_t* __restrict__ key_dst =
        key_cache + block_idx * num_heads * h_block_count * block_size * x +
        head_idx * h_block_count * block_size * x + h_block * block_size * x +
        block_offset * x;
    const int64_t tgt_value_start =
        block_idx * num_heads * h_block_count * x * block_size +
        head_idx * h_block_count * x * block_size + h_block * x * block_size +
        block_offset;

    constexpr int VEC_SIZE = (sizeof(scalar_t) == 2) ? 8 : 4;
    float k_scale_val = (kv_dt == Fp8KVCacheDataType::kAuto) ? 0.f : k_scale;
    CopyWithScaleOp<cache_t, scalar_t, kv_dt> k_op{k_scale_val};

    float v_scale_val = (kv_dt == Fp8KVCacheDataType::kAuto) ? 0.f : v_scale;
    CopyWithScaleOp<cache_t, scalar_t, kv_dt> v_op{v_scale_val};

    vectorize_with_alignment<VEC_SIZE>(key_src, key_dst, x, 0, 1, k_op);

    const scalar_t* __restrict__ value_src = value + src_value_start;
    cache_t* __restrict__ value_dst = value_cache + tgt_value_start;
    #pragma unroll
    for (int i = 0; i < x; i++) {
      v_op(value_dst[i * block_size], value_src[i]);
    }
  }
}
