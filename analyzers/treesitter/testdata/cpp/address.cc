// Guards that take the mutex's address, in the shapes of Boost's own
// helpers: a lock pool's guard, named through a member typedef, locking
// the lock of an object's address (boost::atomics' emulated operations),
// and a spinlock pool's guard (boost::detail::sp_counted_base). An
// invariant names the lock by its address (`&storage`, as the argument is
// written) or by its object (`storage`): both are the same lock.
// `// want ID "regexp"` marks a finding; every other line must stay silent.
namespace boost {
namespace atomics {
namespace detail {

struct core_operations_emulated {
  typedef lock_pool::scoped_lock< storage_alignment > scoped_lock;

  static storage_type load(storage_type const volatile& storage, memory_order) BOOST_NOEXCEPT
  {
    BOOST_STATIC_ASSERT_MSG(!is_interprocess, "Boost.Atomic: operation invoked on a non-lock-free inter-process atomic object");
    scoped_lock lock(&storage);
    return const_cast< storage_type const& >(storage);
  }

  static void notify_one(storage_type volatile& storage) BOOST_NOEXCEPT
  {
    scoped_lock lock(&storage);
    lock_pool::notify_one(lock.get_lock_state(), &storage);
  }

  static void store(storage_type volatile& storage, storage_type v, memory_order) BOOST_NOEXCEPT
  {
    scoped_lock lock(&storage);
    const_cast< storage_type& >(storage) = v;
  }

  // load asserts before it locks: its lock holds around the object's
  // accesses (boost-around), not for the body.

  // Reverts: the pool's lock of another object's address.
  static storage_type revert_other(storage_type const volatile& storage, storage_type const volatile& other) BOOST_NOEXCEPT  // want boost-address "must hold &storage \(exclusive\) at every statement that does work, and never acquires it" boost-object "must hold storage \(exclusive\) at every statement that does work, and never acquires it"
  {
    scoped_lock lock(&other);
    return const_cast< storage_type const& >(storage);  // want boost-around "must hold &storage \(exclusive\) where it calls const_cast; no guard of &storage is in scope here"
  }
};

}  // namespace detail
}  // namespace atomics

namespace detail {

class sp_counted_base {
  long use_count() const // nothrow
  {
    spinlock_pool<1>::scoped_lock lock( &use_count_ );
    return use_count_;
  }

  long revert_weak_count() const  // want boost-spin "never acquires it"
  {
    spinlock_pool<1>::scoped_lock lock( &weak_count_ );
    return use_count_;
  }

  long use_count_;
  long weak_count_;
};

}  // namespace detail
}  // namespace boost
