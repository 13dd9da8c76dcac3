// A block-stride loop of hundreds of trips whose first lane starts one stride late (HeCBench's
// romberg: thread 0 takes the end points, then starts at blockDim.x). Thread 0 leaves a trip
// before the others of its warp, on trip 255 of 256: past the trips examined one by one, so
// the evaluation skips to the first trip a lane leaves on. Lanes that all start within the
// first stride run the same number of trips and stay together.
__global__ void late_start(float *out) {
    float s = 0.f;
    int k = threadIdx.x ? threadIdx.x : blockDim.x;
    for (; k < 65536; k += blockDim.x) // expect: divergent-branch definite
        s += k;
    out[threadIdx.x] = s;
}

__global__ void same_start(float *out) {
    float s = 0.f;
    for (int k = threadIdx.x; k < 65536; k += blockDim.x)
        s += k;
    out[threadIdx.x] = s;
}

int main() {
    float *out = 0;
    late_start<<<1, 256>>>(out);
    same_start<<<1, 256>>>(out);
    return 0;
}
