// Pixels of three bytes in rows of a width nobody gave, written by 16x16 blocks: each warp
// covers two rows, an unknown pitch apart. The pitch is read as padded to measure the request,
// and that reading alone would make the verdict `possible`; but one row of 16 lanes already
// spans 46 bytes, two sectors or more wherever it starts, where the warp's 32 bytes need one:
// uncoalesced `definite` whatever the width is.
__global__ void shade(unsigned char *rgb, const float *v, int width, int height) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) {
        unsigned char c = (unsigned char)(v[y * width + x] * 255.0f);
        rgb[3 * (y * width + x) + 1] = c; // expect: uncoalesced-access definite
    }
}

// One byte per pixel in the same rows: each row of 16 lanes fits in one sector, and the two
// rows are dense together when the width is 16, so the verdict hangs on the pitch: `possible`.
__global__ void shade_gray(unsigned char *gray, const float *v, int width, int height) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) {
        gray[y * width + x] = (unsigned char)(v[y * width + x] * 255.0f); // expect: uncoalesced-access possible
    }
}

int main(int argc, char **argv) {
    int w = argc > 1 ? 640 : 1920, h = argc > 1 ? 480 : 1080;
    dim3 block(16, 16), grid((w + 15) / 16, (h + 15) / 16);
    shade<<<grid, block>>>(0, 0, w, h);
    shade_gray<<<grid, block>>>(0, 0, w, h);
    return 0;
}
