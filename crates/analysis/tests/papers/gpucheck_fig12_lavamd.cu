// GPUCheck figure 12 (lavaMD): a box holds NUMBER_PAR_PER_BOX = 100 particles and the kernel
// runs NUMBER_THREADS = 128 threads, so `while (wtx < NUMBER_PAR_PER_BOX)` leaves warp 3
// partly idle: divergent (GPUCheck and nvprof both report it). The copy itself is coalesced.
//
// geometry: lava_copy grid=1,1,1 block=128,1,1
#define NUMBER_PAR_PER_BOX 100
#define NUMBER_THREADS 128

__global__ void lava_copy(const float* rA, float* out)
{
    __shared__ float rA_shared[NUMBER_PAR_PER_BOX];
    int wtx = threadIdx.x;
    while (wtx < NUMBER_PAR_PER_BOX) { // expect: divergent-branch definite
        rA_shared[wtx] = rA[wtx];
        wtx = wtx + NUMBER_THREADS;
    }
    __syncthreads();
    // Warp 3 reads words 96..99 and 0..27: banks 0-3 twice, a 2-way conflict.
    out[threadIdx.x] = rA_shared[threadIdx.x % NUMBER_PAR_PER_BOX]; // expect: bank-conflict definite
}
