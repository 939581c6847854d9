// A class whose header only declares: every member is defined in
// store.cc. The field types, the private section and the helper's
// declaration are read from here all the same.
#include <map>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <vector>

class Store {
 public:
  std::string name_at(std::size_t i) const;
  int hits_of(int key) const;
  void add(const std::string& s);
  void compact();

 private:
  void trim();
  mutable std::shared_mutex mu_;
  std::vector<std::string> names_;
  std::map<int, int> hits_;
};

// A type of the header whose lock is a variable of the file that
// defines its functions, not one of its fields.
struct Counter {
  int n;
};
