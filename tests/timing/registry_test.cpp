// DRAM models, DRAM schedulers and NoC models are chosen by registered name:
// the built-in ones are registered, an unknown name is an error that names the
// config key and the registered names, and a scheduler defined and registered
// in this file alone is chosen by configuration.
#include "timing/memory/dram_detailed.h"
#include "timing/memory/memory_system.h"

#include "core/error.h"
#include "timing/dram_test_traffic.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace npusim::timing {
namespace {

/// First come, first served: only the oldest request gets commands.
class OldestFirstScheduler final : public DramScheduler {
public:
  explicit OldestFirstScheduler(const config::DramConfig &) {}
  DramChoice choose(const DramChannelView &channel, int64_t cycle) override {
    const NextCommand next = nextCommand(channel);
    if (!channel.timing.ready(next.command, next.group, next.bank, cycle))
      return {};
    return {next.kind, 0};
  }
  int64_t nextUsefulCycle(const DramChannelView &channel, int64_t cycle) const override {
    const NextCommand next = nextCommand(channel);
    return std::max(cycle + 1, channel.timing.earliest(next.command, next.group, next.bank));
  }

private:
  struct NextCommand {
    DramChoice::Kind kind;
    DramCommand command;
    int group, bank;
  };
  static NextCommand nextCommand(const DramChannelView &channel) {
    const DramQueueEntry &oldest = channel.queue.front();
    const int64_t open = channel.openRow[static_cast<size_t>(oldest.bankIndex)];
    const int group = oldest.location.bankGroup, bank = oldest.location.bank;
    if (open == oldest.location.row)
      return {DramChoice::Kind::Column, channel.writes ? DramCommand::Write : DramCommand::Read, group, bank};
    if (open == kNoOpenRow)
      return {DramChoice::Kind::Activate, DramCommand::Activate, group, bank};
    return {DramChoice::Kind::Precharge, DramCommand::Precharge, group, bank};
  }
};

[[maybe_unused]] const bool kOldestFirstRegistered = DramSchedulers::add<OldestFirstScheduler>("oldest_first");

bool contains(const std::vector<std::string> &names, const std::string &name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::string errorOf(const config::HardwareConfig &hardware) {
  EventQueue events;
  try {
    makeMemorySystem(hardware, events);
  } catch (const core::InputError &error) {
    return error.what();
  }
  return "";
}

TEST(Registry, BuiltInPartsAreRegistered) {
  EXPECT_TRUE(contains(DramModels::names(), "detailed"));
  EXPECT_TRUE(contains(DramModels::names(), "fixed_latency"));
  EXPECT_TRUE(contains(DramSchedulers::names(), "frfcfs"));
  EXPECT_TRUE(contains(NocModels::names(), "crossbar"));
}

TEST(Registry, UnknownNamesNameTheKeyAndTheRegisteredNames) {
  config::HardwareConfig hardware = traffic::oneGigahertzMachine(1);
  hardware.dram.model = "magic";
  const std::string model = errorOf(hardware);
  EXPECT_NE(model.find("'dram_model': 'magic' is not registered"), std::string::npos) << model;
  EXPECT_NE(model.find("detailed, fixed_latency"), std::string::npos) << model;

  hardware = traffic::oneGigahertzMachine(1);
  hardware.dram.scheduler = "fifo";
  const std::string scheduler = errorOf(hardware);
  EXPECT_NE(scheduler.find("'dram_scheduler': 'fifo' is not registered"), std::string::npos) << scheduler;
  EXPECT_NE(scheduler.find("frfcfs"), std::string::npos) << scheduler;

  hardware = traffic::oneGigahertzMachine(1);
  hardware.noc.model = "mesh";
  const std::string noc = errorOf(hardware);
  EXPECT_NE(noc.find("'noc_model': 'mesh' is not registered"), std::string::npos) << noc;
  EXPECT_NE(noc.find("crossbar"), std::string::npos) << noc;
}

TEST(Registry, TwoRegistrationsOfOneNameAreRefused) {
  EXPECT_THROW(DramSchedulers::add<OldestFirstScheduler>("oldest_first"), core::InputError);
}

TEST(Registry, ConfigChoosesASchedulerRegisteredInThisFile) {
  // The scenario of DramController.FrFcfsServesYoungerRowHitBeforeOlderMiss
  // (HBM2 defaults, tCK 1000 ps, one channel): byte 0 opens bank 0's row 0; at
  // cycle 20 an older request for row 1 of bank 0 and a younger hit on row 0
  // arrive. Oldest first serves the conflict first: PRE at ACT + nRAS = 34,
  // ACT at 34 + nRP = 48, RD at 48 + nRCD 14 = 62, data at 62 + nCL 14 + nBL 2 = 78.
  // The hit has become a conflict: PRE at max(ACT@48 + nRAS 34, RD@62 + nRTP 5)
  // = 82, ACT at max(82 + nRP 14, ACT@48 + nRC 48) = 96, RD at 110, data at 126.
  config::DramConfig dram;
  dram.channels = 1;
  dram.freqMhz = 1000.0;
  dram.scheduler = "oldest_first";
  EventQueue events;
  DetailedDram model(dram, events);
  model.recordCommands(true);
  std::vector<TimePs> done(3, -1);
  model.setCompletionCallback([&](const MemoryRequest &request, TimePs at) { done.at(request.id) = at; });
  const auto send = [&](int64_t cycle, uint64_t id, uint64_t address) {
    events.schedule(cycle * 1000, [&model, id, address] {
      model.accept(MemoryRequest{id, address, 32, false, 0});
    });
  };
  send(0, 0, 0);
  send(20, 1, 16384);
  send(20, 2, 64);
  events.run();
  std::string commands;
  for (const DramCommandRecord &record : model.commandLog(0))
    commands += (commands.empty() ? "" : " ") + std::string(dramCommandName(record.command)) + "@" +
                std::to_string(record.cycle);
  EXPECT_EQ(commands, "ACT@0 RD@14 PRE@34 ACT@48 RD@62 PRE@82 ACT@96 RD@110");
  EXPECT_EQ(done[1], 78'000);
  EXPECT_EQ(done[2], 126'000);
}

} // namespace
} // namespace npusim::timing
