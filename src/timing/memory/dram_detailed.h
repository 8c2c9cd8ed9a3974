#pragma once
// The detailed DRAM model: one controller per channel (dram_controller.h)
// behind the address mapper; banks, open rows, FR-FCFS, refresh.
#include "timing/memory/dram_controller.h"
#include "timing/memory/dram_model.h"

#include <memory>
#include <vector>

namespace npusim::timing {

class DetailedDram final : public DramModel {
public:
  DetailedDram(const config::DramConfig &dram, EventQueue &events);

  bool canAccept(const MemoryRequest &request) const override;
  void accept(const MemoryRequest &request) override;
  /// All channels together.
  MemoryStats stats() const override;
  int freeEntries(int channel, bool write) const override;

  /// Records every command of every channel from now on (off by default: the
  /// log grows with the run). For tests and traces.
  void recordCommands(bool on);
  const std::vector<DramCommandRecord> &commandLog(int channel) const;
  const DramController &controller(int channel) const { return *controllers_.at(static_cast<size_t>(channel)); }
  TimePs clockPs() const { return clockPs_; }

private:
  TimePs clockPs_;
  std::vector<std::unique_ptr<DramController>> controllers_;
  std::vector<std::vector<DramCommandRecord>> logs_;
};

} // namespace npusim::timing
