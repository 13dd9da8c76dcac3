// GPUDrano (Alur, Devietti, Navarro Leija, Singhania) figure 2: gaussian's Fan2 before (a: each
// thread a row, A[xy] and M[xt] walk a column: uncoalesced) and after the fix (b: each thread a
// column, every access coalesced or uniform). N is assumed as in the paper's experiment.
// B[x] with x = tid + t + 1 is dense but starts one float past a sector boundary: an
// alignment-based cost GPUDrano's abstraction does not see (the paper says so).
//
// geometry: fan2_a grid=1,1,1 block=256,1,1
// geometry: fan2_b grid=1,1,1 block=256,1,1
// assume: N=1024
// assume: t=0

__global__ void fan2_a(float* A, float* B, const float* M, int N, int t)
{
    int tid = threadIdx.x;
    if (tid + t + 1 >= N) return;
    int x = tid + t + 1;
    for (int y = t; y < N; y++) {
        int xt = N * x + t;
        int xy = N * x + y;
        int ty = N * t + y;
        A[xy] -= M[xt] * A[ty]; // expect: uncoalesced-access definite
        if (y == t)
            B[x] -= M[xt] * B[t]; // expect: uncoalesced-access definite, misaligned-access definite
    }
}

__global__ void fan2_b(float* A, float* B, const float* M, int N, int t)
{
    int tid = threadIdx.x;
    if (tid + t >= N) return;
    int y = tid + t;
    for (int x = t + 1; x < N; x++) {
        int xt = N * x + t;
        int xy = N * x + y;
        int ty = N * t + y;
        A[xy] -= M[xt] * A[ty];
        if (y == t) // expect: divergent-branch definite
            B[x] -= M[xt] * B[t];
    }
}
