// A header for explore_clang.rs: `-I DIR` through the explorer.
#define TILE 16
