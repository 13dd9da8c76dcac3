// GPUCheck figure 9: inter-procedural ACF. With b and a kept out of line, the calls resolve
// down the call stack (ACF(y) = a(b(4)) = -4) and up it: the return of b is 12 in the context
// b(4) and 4 in the context b(y); IACF(br) = {12, 4}.
//
// geometry: fig9 grid=1,1,1 block=32,1,1

__device__ __noinline__ int a(int i)
{
    int ar = i - 16;
    return ar;
}

__device__ __noinline__ int b(int j)
{
    int br = j + 8;
    return br;
}

__global__ void fig9(int* out)
{
    int x = b(4);
    int y = a(x);
    int z = b(y);
    out[threadIdx.x] = y + z;
}
