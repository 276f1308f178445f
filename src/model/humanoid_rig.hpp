#pragma once
// Private to the humanoid mapper (humanoid_map.cpp): a model's hierarchy as the mapper reads it.
// Ancestry is O(1) (a depth-first order in which every subtree is one range), so the mapper's
// searches stay linear in the nodes however deep the hierarchy is. A parent that is not below its
// node's own index (a hand-built model that validate(Model) would refuse) makes the node a root.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "marrow/model/model.hpp"

namespace marrow::humanoid_rig {

class Rig {
 public:
  explicit Rig(const Model& model) {
    const std::size_t n = model.nodes.size();
    parent_.assign(n, -1);
    depth_.assign(n, 0);
    subtree_.assign(n, 1);
    for (std::size_t i = 0; i < n; ++i) {
      const int p = model.nodes[i].parent;
      if (p >= 0 && static_cast<std::size_t>(p) < i) {
        parent_[i] = p;
        depth_[i] = depth_[static_cast<std::size_t>(p)] + 1;
      }
    }
    for (std::size_t i = n; i-- > 0;) {  // parents precede children: one backward pass sums subtrees
      if (parent_[i] >= 0) subtree_[static_cast<std::size_t>(parent_[i])] += subtree_[i];
    }
    build_children();
    build_order();
  }

  std::size_t size() const noexcept { return parent_.size(); }
  int parent(int node) const noexcept { return parent_[at(node)]; }
  std::uint32_t descendants(int node) const noexcept { return subtree_[at(node)] - 1; }
  std::span<const int> children(int node) const noexcept {
    const std::size_t begin = child_begin_[at(node)], end = child_begin_[at(node) + 1];
    return std::span<const int>(children_).subspan(begin, end - begin);
  }
  // node lies strictly below ancestor (false when either is -1).
  bool below(int node, int ancestor) const noexcept {
    if (node < 0 || ancestor < 0 || node == ancestor) return false;
    const std::uint32_t a = order_[at(ancestor)], x = order_[at(node)];
    return x > a && x < a + subtree_[at(ancestor)];
  }
  // The deepest node that is a or above a and also b or above b; -1 when they share no root.
  int common_ancestor(int a, int b) const noexcept {
    if (a < 0 || b < 0) return -1;
    while (depth_[at(a)] > depth_[at(b)]) a = parent_[at(a)];
    while (depth_[at(b)] > depth_[at(a)]) b = parent_[at(b)];
    while (a != b && a >= 0 && b >= 0) {
      a = parent_[at(a)];
      b = parent_[at(b)];
    }
    return a == b ? a : -1;
  }

 private:
  static std::size_t at(int node) noexcept { return static_cast<std::size_t>(node); }

  void build_children() {
    const std::size_t n = size();
    child_begin_.assign(n + 1, 0);
    for (std::size_t i = 0; i < n; ++i) {
      if (parent_[i] >= 0) ++child_begin_[at(parent_[i]) + 1];
    }
    for (std::size_t i = 0; i < n; ++i) child_begin_[i + 1] += child_begin_[i];
    children_.assign(child_begin_[n], 0);
    std::vector<std::size_t> next(child_begin_.begin(), child_begin_.end() - 1);
    for (std::size_t i = 0; i < n; ++i) {  // children in index order
      if (parent_[i] >= 0) children_[next[at(parent_[i])]++] = static_cast<int>(i);
    }
  }

  // A depth-first numbering without recursion: a node's number, then its subtree's, in a range.
  void build_order() {
    const std::size_t n = size();
    order_.assign(n, 0);
    std::vector<int> stack;
    std::uint32_t next = 0;
    for (std::size_t root = 0; root < n; ++root) {
      if (parent_[root] >= 0) continue;
      stack.push_back(static_cast<int>(root));
      while (!stack.empty()) {
        const int node = stack.back();
        stack.pop_back();
        order_[at(node)] = next++;
        const std::span<const int> kids = children(node);
        for (std::size_t k = kids.size(); k-- > 0;) stack.push_back(kids[k]);
      }
    }
  }

  std::vector<int> parent_;
  std::vector<std::uint32_t> depth_;
  std::vector<std::uint32_t> subtree_;  // the node and its descendants
  std::vector<std::size_t> child_begin_;
  std::vector<int> children_;
  std::vector<std::uint32_t> order_;
};

}  // namespace marrow::humanoid_rig
