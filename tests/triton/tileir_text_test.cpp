// Every kernel of the corpus, lowered to TileIR, prints to text that parses
// back to a function that prints the same (docs/tileir.md §7).
#include "ir/ir.h"
#include "triton/frontend.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace npusim::triton {
namespace {

std::vector<std::filesystem::path> kernelFiles(const std::string &folder) {
  const std::filesystem::path root = std::filesystem::path(NPUSIM_TEST_DATA) / folder;
  std::vector<std::filesystem::path> files;
  for (const auto &entry : std::filesystem::recursive_directory_iterator(root))
    if (entry.is_regular_file() && entry.path().extension() == ".py")
      files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

void expectEveryKernelRoundTrips(const std::string &folder) {
  const auto files = kernelFiles(folder);
  ASSERT_FALSE(files.empty()) << folder;
  size_t checked = 0;
  for (const auto &path : files) {
    SCOPED_TRACE(path.string());
    const KernelFile file = loadKernelFile(path.string());
    const auto function = lowerKernel(file, defaultConstexprs(file.metadata));
    const std::string text = ir::print(*function);
    const auto parsed = ir::parse(text, path.filename().string() + ".tileir");
    EXPECT_EQ(ir::print(*parsed), text);
    EXPECT_EQ(parsed->numValues(), function->numValues());
    ++checked;
  }
  EXPECT_EQ(checked, files.size());
}

TEST(TileIRText, KernelsRoundTrip) {
  expectEveryKernelRoundTrips("kernels");
}
TEST(TileIRText, InductorKernelsRoundTrip) {
  expectEveryKernelRoundTrips("inductor_kernels");
}

// sort_with_index(..., stable=True, descending=...) keeps both flags: they
// choose the bitonic network's compare (core/sort_network.h).
TEST(TileIRText, SortWithIndexCarriesStableAndDescending) {
  const std::filesystem::path root = std::filesystem::path(NPUSIM_TEST_DATA) / "kernels";
  const struct {
    const char *file, *sort;
  } cases[] = {{"triton_per_fused_sort_0.py", "sort axis=1 stable "},
               {"triton_per_fused_sort_1.py", "sort axis=1 descending stable "}};
  for (const auto &c : cases) {
    const KernelFile file = loadKernelFile((root / c.file).string());
    const std::string text = ir::print(*lowerKernel(file, defaultConstexprs(file.metadata)));
    EXPECT_NE(text.find(c.sort), std::string::npos) << c.file << ":\n" << text;
  }
}

} // namespace
} // namespace npusim::triton
