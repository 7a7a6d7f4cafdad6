#include "analyzer/util/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ext/stdio_filebuf.h>
#include <iostream>
#include <vector>

namespace ilint {

struct OutputFile::Impl {
  std::string path;       // the target
  std::string temp;       // the temporary file beside it; empty when writing in place
  int fd = -1;
  std::unique_ptr<__gnu_cxx::stdio_filebuf<char>> buf;
  std::unique_ptr<std::ostream> out;
  bool committed = false;
};

namespace {
std::string dir_of(const std::string& path) {
  auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}
std::string name_of(const std::string& path) {
  auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}
}  // namespace

OutputFile::OutputFile() = default;

OutputFile::~OutputFile() {
  if (!impl_) return;
  impl_->out.reset();
  impl_->buf.reset();  // closes fd
  if (!impl_->committed && !impl_->temp.empty()) ::unlink(impl_->temp.c_str());
}

bool OutputFile::open(const std::string& path, std::string& error) {
  impl_ = std::make_unique<Impl>();
  impl_->path = path;
  struct stat st;
  bool exists = ::lstat(path.c_str(), &st) == 0;
  bool link = exists && S_ISLNK(st.st_mode);
  if (link) {
    // A link to a device or a pipe (/dev/stdout -> /proc/self/fd/1) is written through; a link to a
    // file, or to nothing yet, would write where the link points.
    struct stat target;
    if (::stat(path.c_str(), &target) != 0 || S_ISREG(target.st_mode) || S_ISDIR(target.st_mode)) {
      error = "refusing to write through the symbolic link " + path;
      return false;
    }
    st = target;
  }
  if (exists && S_ISDIR(st.st_mode)) {
    error = "cannot write " + path + ": it is a directory";
    return false;
  }
  if (exists && !S_ISREG(st.st_mode)) {
    // A device or FIFO the user named: written in place (O_NONBLOCK only to open a FIFO without
    // waiting for a reader, then writes block as usual).
    impl_->fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NONBLOCK | (link ? 0 : O_NOFOLLOW));
    if (impl_->fd >= 0) ::fcntl(impl_->fd, F_SETFL, ::fcntl(impl_->fd, F_GETFL) & ~O_NONBLOCK);
  } else {
    std::string tmpl = dir_of(path) + "/." + name_of(path) + ".inductor-lint-XXXXXX";
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    impl_->fd = ::mkostemp(buf.data(), O_CLOEXEC);
    if (impl_->fd >= 0) {
      impl_->temp = buf.data();
      // A new file gets the usual mode (umask applied), not mkstemp's 0600.
      mode_t mask = ::umask(0);
      ::umask(mask);
      ::fchmod(impl_->fd, exists ? (st.st_mode & 07777) : (0666 & ~mask));
    }
  }
  if (impl_->fd < 0) {
    error = "cannot write " + path + ": " + std::strerror(errno);
    return false;
  }
  impl_->buf = std::make_unique<__gnu_cxx::stdio_filebuf<char>>(impl_->fd, std::ios::out | std::ios::binary, 1 << 16);
  impl_->out = std::make_unique<std::ostream>(impl_->buf.get());
  return true;
}

std::ostream& OutputFile::stream() { return *impl_->out; }

bool OutputFile::commit(std::string& error) {
  Impl& f = *impl_;
  f.out->flush();
  bool ok = static_cast<bool>(*f.out);
  int saved = errno;
  // close() reports a write the kernel could not finish (NFS, quota); stdio_filebuf closes on
  // destruction without telling, so the descriptor is closed here.
  if (f.buf->close() == nullptr) ok = false, saved = errno;
  f.out.reset();
  f.buf.reset();
  if (!ok) {
    error = "cannot write " + f.path + ": " + std::strerror(saved ? saved : EIO);
    return false;
  }
  if (!f.temp.empty()) {
    struct stat st;
    if (::lstat(f.path.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {  // appeared while writing
      error = "refusing to write through the symbolic link " + f.path;
      return false;
    }
    if (::rename(f.temp.c_str(), f.path.c_str()) != 0) {
      error = "cannot write " + f.path + ": " + std::strerror(errno);
      return false;
    }
  }
  f.committed = true;
  return true;
}

bool stdout_written(std::string& error) {
  std::cout.flush();
  bool ok = static_cast<bool>(std::cout) && std::fflush(stdout) == 0 && !std::ferror(stdout);
  if (!ok) error = std::string("cannot write the report to standard output: ") + std::strerror(errno ? errno : EIO);
  return ok;
}

}  // namespace ilint
