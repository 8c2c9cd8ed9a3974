// The pipelined GEMM: kernel text, tile choice and cost estimate
// (gemm_pipelined.h).
#include "library/gemm_pipelined.h"
#include "library/plan_support.h"

#include <algorithm>
#include <vector>

namespace npusim::library::detail {

namespace {

// Grid: (cdiv(M, rows per program), cdiv(N, columns per program), batches).
constexpr std::string_view kPipelinedGemmSource = R"TRITON(
import triton
import triton.language as tl


@triton.jit
def {{NAME}}({{GEMM_PARAMETERS}}
             BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    batch = tl.program_id(2)
    rk = tl.arange(0, BLOCK_K)
    a_base = a_ptr + batch * STRIDE_AB
    b_base = b_ptr + batch * STRIDE_BB
    bias_base = bias_ptr + batch * STRIDE_BIASB
    c_base = c_ptr + batch * STRIDE_CB
{{BODY}}
)TRITON";

/// Half h's operand names in buffer s ("x" or "y").
std::string aOf(const PipelinedTiles &t, const std::string &s, int h) {
  return t.splitM ? "a" + s + "_" + std::to_string(h) : "a" + s;
}
std::string bOf(const PipelinedTiles &t, const std::string &s, int h) {
  return t.splitM ? "b" + s : "b" + s + "_" + std::to_string(h);
}
std::string rowsOf(const PipelinedTiles &t, int h) {
  return t.splitM ? "rows_" + std::to_string(h) : "rows_0";
}
std::string colsOf(const PipelinedTiles &t, int h) {
  return t.splitM ? "cols_0" : "cols_" + std::to_string(h);
}

/// Buffer s's operands for the K block starting at `start` (an expression).
std::string loadBlock(const GemmKernelFlags &k, const PipelinedTiles &t, const std::string &s,
                      const std::string &start, int spaces) {
  const std::string kIndex = "k" + s, kMask = k.kRagged ? "(" + kIndex + " < K)" : "";
  std::string text = indent(spaces) + kIndex + " = " + start + " + rk\n";
  const std::string cast = operandCast(k);
  for (int h = 0; h < (t.splitM ? 2 : 1); ++h)
    text += loadTile(cast, aOf(t, s, h), "a_base", rowsOf(t, h), "STRIDE_AM",
                     k.mRagged ? "(" + rowsOf(t, h) + " < M)" : "", kIndex, "STRIDE_AK", kMask, k.aMContiguous,
                     spaces);
  for (int h = 0; h < (t.splitM ? 1 : 2); ++h)
    text += loadTile(cast, bOf(t, s, h), "b_base", kIndex, "STRIDE_BK", kMask, colsOf(t, h), "STRIDE_BN",
                     k.nRagged ? "(" + colsOf(t, h) + " < N)" : "", k.bKContiguous, spaces);
  return text;
}

/// Both halves' dots of buffer s: the first on one array, the second on the
/// other (the compiler gives consecutive dots the arrays in turn).
std::string multiplyBlock(const PipelinedTiles &t, const std::string &s, int spaces) {
  std::string text;
  for (int h = 0; h < 2; ++h)
    text += indent(spaces) + "acc" + std::to_string(h) + " += tl.dot(" + aOf(t, s, h) + ", " + bOf(t, s, h) +
            ", allow_tf32=False, out_dtype=tl.float32)\n";
  return text;
}

} // namespace

std::string pipelinedGemmSource(const std::string &name, const GemmKernelFlags &k, const PipelinedTiles &t,
                                int64_t kSize) {
  std::string body;
  if (t.splitM) {
    body += "    rows_0 = pid_m * (2 * BLOCK_M) + tl.arange(0, BLOCK_M)\n";
    body += "    rows_1 = rows_0 + BLOCK_M\n";
    body += "    cols_0 = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)\n";
  } else {
    body += "    rows_0 = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)\n";
    body += "    cols_0 = pid_n * (2 * BLOCK_N) + tl.arange(0, BLOCK_N)\n";
    body += "    cols_1 = cols_0 + BLOCK_N\n";
  }
  body += "    acc0 = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)\n";
  body += "    acc1 = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)\n";
  for (int h = 0; h < 2; ++h)
    body += startRowBias(k, "acc" + std::to_string(h), colsOf(t, h), 4);
  // K blocks in pairs: buffer y loads while the arrays multiply x, then x
  // (the block after) while they multiply y. The loop's iterations each
  // reload x; what is left after it is one block in x (an odd count), or a
  // pair whose second block loads into y.
  const int64_t blocks = ceilDiv(kSize, t.blockK);
  const bool odd = blocks % 2 == 1;
  const int64_t iterations = odd ? blocks / 2 : blocks / 2 - 1;
  body += loadBlock(k, t, "x", "0", 4);
  if (iterations > 0) {
    body += "    for k0 in range(0, " + std::to_string(iterations) + " * 2 * BLOCK_K, 2 * BLOCK_K):\n";
    body += loadBlock(k, t, "y", "k0 + BLOCK_K", 8);
    body += multiplyBlock(t, "x", 8);
    body += loadBlock(k, t, "x", "k0 + 2 * BLOCK_K", 8);
    body += multiplyBlock(t, "y", 8);
  }
  if (odd) {
    body += multiplyBlock(t, "x", 4);
  } else {
    body += loadBlock(k, t, "y", std::to_string(blocks - 1) + " * BLOCK_K", 4);
    body += multiplyBlock(t, "x", 4);
    body += multiplyBlock(t, "y", 4);
  }
  for (int h = 0; h < 2; ++h)
    body += storeProduct(k, "acc" + std::to_string(h), "bias" + std::to_string(h), rowsOf(t, h), colsOf(t, h), 4,
                         true);
  return instantiate(
      kPipelinedGemmSource,
      {{"NAME", name},
       {"GEMM_PARAMETERS",
        instantiate(kGemmParameters, {{"A", k.aType}, {"B", k.bType}, {"BIAS", k.biasType}, {"C", k.cType}})},
       {"BODY", body}});
}

std::string pipelinedVariant(const GemmKernelFlags &k, const PipelinedTiles &t, int64_t kSize) {
  // Everything pipelinedGemmSource's text depends on besides the element
  // types and the block sizes (constexprs): the split, the K blocks' pairing,
  // the masks, layouts and epilogue terms.
  const int64_t blocks = ceilDiv(kSize, t.blockK);
  return std::string(t.splitM ? "sm" : "sn") + "_kb" + std::to_string(blocks) + (k.mRagged ? "m" : "") +
         (k.nRagged ? "n" : "") + (k.kRagged ? "k" : "") + (k.aMContiguous ? "_at" : "") +
         (k.bKContiguous ? "_bt" : "") + (k.scaleProduct ? "_alpha" : "") + (k.hasBias ? "_bias" : "") +
         (k.scaleBias ? "_beta" : "");
}

int64_t pipelinedBytesPerLane(const PipelinedTiles &t, int64_t element, bool aTurned, bool bTurned,
                              const MachineShape &machine) {
  const int64_t lanes = machine.lanes, kSlots = ceilDiv(t.blockK, lanes);
  // An operand tile and, where the dot wants its other layout, its copy
  // (mapping.cpp counts the same); A [rows, K], B [K, columns].
  const int64_t a = kSlots * t.blockM * element * (aTurned ? 2 : 1);
  const int64_t b = kSlots * t.blockN * element * (bTurned ? 2 : 1);
  const int64_t perBuffer = t.splitM ? 2 * a + b : a + 2 * b;
  const int64_t half = ceilDiv(t.blockN, lanes) * t.blockM * 4; // one fp32 [BLOCK_M, BLOCK_N]
  return 2 * perBuffer + 3 * half;                                // two buffers, two accumulators, one product
}

double pipelinedCycles(const PipelinedTiles &t, int64_t m, int64_t n, int64_t k, int64_t batches, int64_t element,
                       bool bTurned, bool hasBias, const MachineShape &machine) {
  const double lanes = machine.lanes, bw = std::max(1.0, machine.dramBytesPerCycle);
  const int64_t rowsP = programRows(t), colsP = programColumns(t);
  const int64_t programs = ceilDiv(m, rowsP) * ceilDiv(n, colsP) * batches;
  const int64_t blocks = ceilDiv(k, t.blockK);
  const int64_t issued = blocks;
  // Real rows and columns of the average program (masked ones are not read).
  const double rows = static_cast<double>(m) / static_cast<double>(ceilDiv(m, rowsP));
  const double cols = static_cast<double>(n) / static_cast<double>(ceilDiv(n, colsP));
  const double depth = static_cast<double>(k) / static_cast<double>(blocks);
  // One block: both arrays at once, each its half's folds of max(rows, L)
  // cycles (docs/timing.md, "Systolic arrays").
  const double dots = static_cast<double>(ceilDiv(t.blockK, machine.lanes) * ceilDiv(t.blockN, machine.lanes)) *
                      std::max(static_cast<double>(t.blockM), lanes);
  // One block's loads: its bytes at the peak and 4 cycles per DMA run
  // (mapping.cpp's measured run cost): a row of A each, and a row of B (a
  // column where K is its contiguous axis).
  const double loadBytes = (rows + cols) * depth * static_cast<double>(element);
  const double runs = rows + (bTurned ? cols : depth);
  const double load = loadBytes / bw + detail::kDmaRunCycles * runs;
  // The product's store, and a bias tile's load where there is one.
  const double store = rows * cols * 4 / bw * (hasBias ? 2 : 1);
  // Steady state: per block the slower of the loads and the dots; the
  // product's store shares DRAM with the next program's loads. Exposed once:
  // the first block's loads and a round trip, the last block's dots, the
  // last store, and a fold's fill and drain.
  const double perProgram = std::max(static_cast<double>(issued) * load + store, static_cast<double>(issued) * dots);
  return static_cast<double>(programs) * perProgram + load + machine.dramLatencyCycles + dots + store +
         machine.arrayPassOverheadCycles();
}

std::optional<PipelinedTiles> choosePipelinedTiles(int64_t m, int64_t n, int64_t k, int64_t batches,
                                                   int64_t element, bool aTurned, bool bTurned, bool hasBias,
                                                   bool deepK, const MachineShape &machine) {
  if (machine.systolicArrays < 2)
    return std::nullopt;
  const int64_t lane = laneBlock(machine), budget = tileBudgetBytes(machine) / machine.lanes;
  std::optional<PipelinedTiles> best;
  for (bool splitM : {false, true}) {
    // A half's columns: the half's own (a power of two, at least 16, at
    // most one array's width), then two and four arrays' widths.
    const int64_t halfN = splitM ? n : ceilDiv(n, 2);
    std::vector<int64_t> blockNs = {blockFor(halfN, 16, lane)};
    for (int64_t b = 2 * lane; b <= 4 * lane && b < 2 * halfN; b *= 2)
      blockNs.push_back(b);
    // Deep K blocks (four and eight arrays' widths, two blocks or more so
    // that a block's loads overlap the other's dots) make long DMA runs
    // along K, where an operand's K is contiguous.
    std::vector<int64_t> blockKs;
    if (deepK) {
      for (int64_t b = 4 * lane; b <= 8 * lane && 2 * b <= k; b *= 2)
        blockKs.push_back(b);
    } else {
      blockKs.push_back(blockFor(k, 16, lane));
      if (k > lane)
        blockKs.push_back(2 * lane);
    }
    const int64_t halfM = splitM ? ceilDiv(m, 2) : m;
    for (int64_t blockK : blockKs)
      for (int64_t blockN : blockNs)
        for (int64_t blockM = 16; blockM <= std::min<int64_t>(1024, blockFor(halfM, 16, 1024)); blockM *= 2) {
          PipelinedTiles t{blockM, blockN, blockK, splitM, 0};
          if (pipelinedBytesPerLane(t, element, aTurned, bTurned, machine) > budget)
            continue;
          t.cycles = pipelinedCycles(t, m, n, k, batches, element, bTurned, hasBias, machine);
          if (!best || t.cycles < best->cycles * (1 - 1e-9))
            best = t;
        }
  }
  return best;
}

} // namespace npusim::library::detail
