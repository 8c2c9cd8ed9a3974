#pragma once
// A small RGB raster and its PNG encoding, for charts that must exist as an
// image file (the validation plot): filled rectangles, lines and text in a
// built-in 5x7 capital-letter font. The PNG's data is compressed by zlib.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace npusim::report {

struct Rgb {
  uint8_t r = 0, g = 0, b = 0;
};

class RasterImage {
public:
  RasterImage(int width, int height, Rgb background = {255, 255, 255});

  int width() const { return width_; }
  int height() const { return height_; }
  Rgb pixel(int x, int y) const;

  /// Pixels [x0, x1) x [y0, y1), clipped to the image.
  void fillRect(int x0, int y0, int x1, int y1, Rgb colour);
  /// A one-pixel line between two points (Bresenham), clipped.
  void line(int x0, int y0, int x1, int y1, Rgb colour);
  /// Text from (x, y), its top left, in the 5x7 font scaled by `scale` (each
  /// glyph 6 * scale pixels wide with its gap). Letters print as capitals;
  /// characters the font lacks print as '?'.
  void text(int x, int y, std::string_view text, Rgb colour, int scale = 1);
  /// The pixel width text() takes for `text` at `scale`.
  static int textWidth(std::string_view text, int scale = 1);

  /// The PNG file's bytes (8-bit RGB, no interlace).
  std::string png() const;

private:
  int width_, height_;
  std::vector<Rgb> pixels_;
};

} // namespace npusim::report
