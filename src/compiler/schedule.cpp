// Load scheduling (docs/compiler.md "Load scheduling"): the lowering emits
// instructions in TileIR order, so a load whose index the vector unit
// computes waits behind the compute on the previous load's data (the vector
// queue is in order), and the loads of a kernel run one after another. This
// stage moves each DMA load and what it depends on ahead of the rest.
#include "compiler/compiler_internal.h"

#include <algorithm>
#include <map>

namespace npusim::compiler {

namespace {

bool endsRun(const npu::Instruction &in) {
  return !in.body.empty() || !in.elseBody.empty() || in.opcode == npu::Opcode::Loop ||
         in.opcode == npu::Opcode::If || in.opcode == npu::Opcode::Barrier ||
         in.opcode == npu::Opcode::Assert;
}

bool writesDram(npu::Opcode op) {
  return op == npu::Opcode::DmaStore || op == npu::Opcode::DmaAtomic || op == npu::Opcode::SStore;
}

bool readsDram(npu::Opcode op) {
  return op == npu::Opcode::DmaLoad || op == npu::Opcode::SLoad;
}

bool usesArrays(npu::Opcode op) {
  return op == npu::Opcode::MLoadWeights || op == npu::Opcode::MMatmul;
}

/// Readers and the last writer of one resource (a tile's storage, a
/// register, the DRAM) since the run began.
struct Accesses {
  int writer = -1;
  std::vector<int> readers;
};

/// The instructions each one of [begin, end) must follow, by index.
std::vector<std::vector<int>> dependencies(const std::vector<npu::Instruction> &body, size_t begin,
                                           size_t end, const std::vector<int> &storageRoot) {
  std::vector<std::vector<int>> before(end - begin);
  std::map<int, Accesses> tiles, registers;
  Accesses dram;
  auto read = [&](Accesses &a, int i) {
    if (a.writer >= 0)
      before[i].push_back(a.writer);
    a.readers.push_back(i);
  };
  auto write = [&](Accesses &a, int i) {
    if (a.writer >= 0)
      before[i].push_back(a.writer);
    before[i].insert(before[i].end(), a.readers.begin(), a.readers.end());
    a.writer = i;
    a.readers.clear();
  };
  auto root = [&](int t) { return t >= 0 && t < static_cast<int>(storageRoot.size()) ? storageRoot[t] : t; };
  for (size_t k = begin; k < end; ++k) {
    const npu::Instruction &in = body[k];
    const int i = static_cast<int>(k - begin);
    for (int t : tilesRead(in))
      read(tiles[root(t)], i);
    for (int r : npu::registersRead(in))
      read(registers[r], i);
    for (int t : tilesWritten(in))
      write(tiles[root(t)], i);
    if (in.dstReg >= 0)
      write(registers[in.dstReg], i);
    if (writesDram(in.opcode))
      write(dram, i);
    else if (readsDram(in.opcode))
      read(dram, i);
    std::vector<int> &b = before[i];
    std::sort(b.begin(), b.end());
    b.erase(std::unique(b.begin(), b.end()), b.end());
    b.erase(std::remove(b.begin(), b.end(), i), b.end());
  }
  return before;
}

/// Reorders body[begin, end), a run without nested bodies.
bool scheduleRun(std::vector<npu::Instruction> &body, size_t begin, size_t end,
                 const std::vector<int> &storageRoot) {
  const std::vector<std::vector<int>> before = dependencies(body, begin, end, storageRoot);
  const int n = static_cast<int>(end - begin);
  std::vector<int> order;
  std::vector<char> placed(n, 0);
  // Places i after everything it depends on; the dependencies point to
  // earlier instructions, so the recursion ends, and a stack keeps long
  // chains off the call stack.
  auto place = [&](int i) {
    std::vector<std::pair<int, size_t>> stack{{i, 0}};
    while (!stack.empty()) {
      auto &[at, next] = stack.back();
      if (placed[at]) {
        stack.pop_back();
        continue;
      }
      if (next < before[at].size()) {
        const int d = before[at][next++];
        if (!placed[d])
          stack.emplace_back(d, 0);
        continue;
      }
      placed[at] = 1;
      order.push_back(at);
      stack.pop_back();
    }
  };
  for (int i = 0; i < n; ++i)
    if (body[begin + i].opcode == npu::Opcode::DmaLoad)
      place(i);
  for (int i = 0; i < n; ++i)
    place(i);
  bool moved = false;
  for (int i = 0; i < n; ++i)
    moved |= order[i] != i;
  if (!moved)
    return false;
  std::vector<npu::Instruction> run;
  run.reserve(n);
  for (int i : order)
    run.push_back(std::move(body[begin + i]));
  std::move(run.begin(), run.end(), body.begin() + static_cast<std::ptrdiff_t>(begin));
  return true;
}

} // namespace

bool scheduleDmaLoads(std::vector<npu::Instruction> &body, const std::vector<int> &storageRoot) {
  bool moved = false;
  size_t begin = 0;
  for (size_t k = 0; k <= body.size(); ++k) {
    if (k < body.size() && !endsRun(body[k]))
      continue;
    // A run that feeds the systolic arrays keeps the dot lowering's order:
    // it interleaves operand loads with weight loads and matmuls itself.
    const bool feedsArrays = std::any_of(body.begin() + static_cast<std::ptrdiff_t>(begin),
                                         body.begin() + static_cast<std::ptrdiff_t>(k),
                                         [](const npu::Instruction &in) { return usesArrays(in.opcode); });
    if (k > begin + 1 && !feedsArrays)
      moved |= scheduleRun(body, begin, k, storageRoot);
    if (k < body.size()) {
      moved |= scheduleDmaLoads(body[k].body, storageRoot);
      moved |= scheduleDmaLoads(body[k].elseBody, storageRoot);
    }
    begin = k + 1;
  }
  return moved;
}

} // namespace npusim::compiler
