#include "timing/core/instruction_catalog.h"

#include "core/error.h"

#include <algorithm>
#include <string>

namespace npusim::timing {

using npu::Opcode;

std::vector<std::string> SlotLayout::slotNames() const {
  std::vector<std::string> names = {"scalar", "dma load", "dma store", "vector", "cross-lane"};
  for (int array = 0; array < arrays; ++array)
    names.push_back("systolic " + std::to_string(array));
  return names;
}

InstructionCatalog::InstructionCatalog(const npu::Program &program, const config::HardwareConfig &config)
    : program_(program), config_(config) {
  if (config.lanes <= 0)
    throw core::InputError("timing: hardware '" + config.name + "' has " + std::to_string(config.lanes) +
                           " lanes");
  if (program.lanes != 0 && program.lanes != config.lanes)
    throw core::RuntimeError("timing: kernel " + program.kernelName + " was compiled for " +
                             std::to_string(program.lanes) + " lanes, the machine has " +
                             std::to_string(config.lanes));
  slots_.arrays = std::max(1, config.systolicArraysPerCore);
  tileRanges_.reserve(program.tiles.size());
  for (const npu::Tile &tile : program.tiles)
    tileRanges_.push_back(BankRange{tile.bankOffset, tile.bankOffset + tile.layout.bytesPerLane(config.lanes)});
}

BankRange InstructionCatalog::tileRange(int tile, int64_t shift) const {
  const BankRange &range = tileRanges_.at(static_cast<size_t>(tile));
  return BankRange{range.begin + shift, range.end + shift};
}

void InstructionCatalog::countArrayBytes(const npu::Instruction &instruction, InstructionInfo &info) const {
  // An array instruction touches one block of its tiles, not the whole tiles:
  // block b of an axis of extent E covers [b * lanes, min(E, (b + 1) * lanes)).
  const int64_t lanes = config_.lanes;
  auto blockExtent = [lanes](int64_t extent, int64_t block) {
    return std::clamp<int64_t>(extent - block * lanes, 0, lanes);
  };
  info.spadBytesRead = info.spadBytesWritten = 0;
  if (instruction.srcs.empty())
    return;
  const npu::TileLayout &src = program_.tiles[static_cast<size_t>(instruction.srcs[0])].layout;
  if (src.shape.empty() || src.shape.back() == 0)
    return;
  const int64_t srcBytes = core::byteSize(src.dtype);
  if (instruction.opcode == Opcode::MLoadWeights) {
    // B [K, N]: the block's valid K rows of its valid N columns.
    const int64_t k = blockExtent(src.numElements() / src.shape.back(), instruction.kBlock);
    info.spadBytesRead = k * blockExtent(src.shape.back(), instruction.nBlock) * srcBytes;
    return;
  }
  if (instruction.opcode != Opcode::MMatmul || instruction.dsts.empty())
    return;
  info.macDtype = src.dtype;
  const npu::TileLayout &dst = program_.tiles[static_cast<size_t>(instruction.dsts[0])].layout;
  if (dst.shape.empty())
    return;
  // A's rows of the K block stream in; C's rows of the N block are read (when
  // accumulating) and written.
  const int64_t rows = matmulRows(instruction, program_);
  const int64_t cBlockBytes = rows * blockExtent(dst.shape.back(), instruction.nBlock) * core::byteSize(dst.dtype);
  info.spadBytesRead = rows * blockExtent(src.shape.back(), instruction.kBlock) * srcBytes +
                       (instruction.accumulate ? cBlockBytes : 0);
  info.spadBytesWritten = cBlockBytes;
}

const InstructionInfo &InstructionCatalog::info(const npu::Instruction *instruction) {
  if (instruction == nullptr)
    throw core::RuntimeError("timing: kernel " + program_.kernelName +
                             ": an executed instruction does not name its instruction");
  auto found = infos_.find(instruction);
  if (found != infos_.end())
    return *found->second;

  auto info = std::make_unique<InstructionInfo>();
  info->instruction = instruction;
  info->unit = unitKindOf(*instruction);
  info->cost = costOf(*instruction, program_, config_);
  info->tilesRead = npu::readTiles(*instruction);
  info->tilesWritten = npu::writtenTiles(*instruction);
  for (int tile : info->tilesRead)
    if (tile < 0 || static_cast<size_t>(tile) >= program_.tiles.size())
      throw core::RuntimeError("timing: kernel " + program_.kernelName + ": " +
                               std::string(npu::name(instruction->opcode)) + " at " + instruction->loc.str() +
                               " reads tile " + std::to_string(tile) + " of " +
                               std::to_string(program_.tiles.size()));
  for (int tile : info->tilesWritten)
    if (tile < 0 || static_cast<size_t>(tile) >= program_.tiles.size())
      throw core::RuntimeError("timing: kernel " + program_.kernelName + ": " +
                               std::string(npu::name(instruction->opcode)) + " at " + instruction->loc.str() +
                               " writes tile " + std::to_string(tile) + " of " +
                               std::to_string(program_.tiles.size()));
  info->registersRead = npu::registersRead(*instruction);
  info->registerWritten = registerWritten(*instruction);
  info->barrier = instruction->opcode == Opcode::Barrier;
  info->memoryAccess = instruction->opcode == Opcode::SLoad || instruction->opcode == Opcode::SStore;

  auto tileBytes = [this](int tile) {
    const npu::TileLayout &layout = program_.tiles[static_cast<size_t>(tile)].layout;
    return layout.numElements() * core::byteSize(layout.dtype);
  };
  for (int tile : info->tilesRead)
    info->spadBytesRead += tileBytes(tile);
  for (int tile : info->tilesWritten)
    info->spadBytesWritten += tileBytes(tile);

  switch (info->unit) {
  case UnitKind::Scalar:
    info->slot = SlotLayout::kScalar;
    info->stream = info->memoryAccess ? SlotLayout::kScalarMemoryStream : SlotLayout::kScalarStream;
    break;
  case UnitKind::Dma:
    if (instruction->opcode == Opcode::DmaLoad) {
      info->slot = SlotLayout::kDmaLoad;
      info->stream = SlotLayout::kDmaLoadStream;
    } else {
      info->slot = SlotLayout::kDmaStore;
      info->stream = SlotLayout::kDmaStoreStream;
    }
    if (!info->tilesRead.empty() || !info->tilesWritten.empty()) {
      const int tile = !info->tilesWritten.empty() ? info->tilesWritten[0] : info->tilesRead[0];
      info->dmaElementBytes = core::byteSize(program_.tiles[static_cast<size_t>(tile)].layout.dtype);
    }
    break;
  case UnitKind::Vector:
    info->slot = SlotLayout::kVector;
    info->stream = SlotLayout::kVectorStream;
    info->vectorElementBytes = vectorElementBytes(*instruction, program_);
    if (instruction->opcode == Opcode::VElementwise)
      info->vectorClass = vectorClassOf(instruction->function);
    if (!instruction->dsts.empty())
      info->resultElements = program_.tiles[static_cast<size_t>(instruction->dsts[0])].layout.numElements();
    break;
  case UnitKind::CrossLane:
    info->slot = SlotLayout::kCrossLane;
    info->stream = SlotLayout::kCrossLaneStream;
    break;
  case UnitKind::Systolic: {
    const int array = instruction->array;
    if (array < 0 || array >= slots_.arrays)
      throw core::RuntimeError("timing: kernel " + program_.kernelName + ": " +
                               std::string(npu::name(instruction->opcode)) + " at " + instruction->loc.str() +
                               " names systolic array " + std::to_string(array) + "; the machine has " +
                               std::to_string(slots_.arrays));
    info->slot = SlotLayout::kFirstArray + array;
    info->stream = instruction->opcode == Opcode::MLoadWeights ? SlotLayout::arrayLoadStream(array)
                                                               : SlotLayout::arrayComputeStream(array);
    info->macs = usefulMacs(*instruction, program_, config_.lanes);
    countArrayBytes(*instruction, *info);
    break;
  }
  }
  const InstructionInfo &result = *info;
  infos_.emplace(instruction, std::move(info));
  return result;
}

} // namespace npusim::timing
