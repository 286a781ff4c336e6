package grep

import (
	"errors"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// maxContentWatches caps the directories the content cache watches. Watches
// come from a per-user pool (fs.inotify.max_user_watches) that editors and
// file watchers share, so the cache takes a bounded share of it; files in
// directories beyond the cap are checked with a stat instead.
const maxContentWatches = 8192

// watchMask is every change to a directory's entries or to the files in it.
const watchMask = unix.IN_MODIFY | unix.IN_ATTRIB | unix.IN_CLOSE_WRITE | unix.IN_CREATE |
	unix.IN_DELETE | unix.IN_MOVED_FROM | unix.IN_MOVED_TO | unix.IN_DELETE_SELF |
	unix.IN_MOVE_SELF | unix.IN_ONLYDIR

// localFS are the file systems whose changes all reach inotify: on network
// and FUSE file systems another machine's writes are never reported.
var localFS = map[int64]bool{
	0xEF53:     true, // ext2, ext3, ext4
	0x58465342: true, // xfs
	0x9123683E: true, // btrfs
	0x01021994: true, // tmpfs
	0x794C7630: true, // overlayfs
	0x2FC12FC1: true, // zfs
	0xF2F52010: true, // f2fs
}

// watcher is the content cache's inotify instance: a directory watched
// before a file in it is read reports every later change to that file,
// so a cached file whose directory is watched and still the same needs no
// stat to be trusted. All its methods run under the cache's lock.
type watcher struct {
	fd   int
	byWD map[int32]*dirWatch
	buf  []byte
}

// newWatcher opens an inotify instance, or returns nil when the system
// refuses one (the cache then checks every file with a stat).
func newWatcher() *watcher {
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		return nil
	}
	return &watcher{fd: fd, byWD: map[int32]*dirWatch{}, buf: make([]byte, 64<<10)}
}

// add watches dir; nil when it cannot be watched (the cap, a file system
// whose changes inotify may miss, an error).
func (w *watcher) add(dir string) *dirWatch {
	if len(w.byWD) >= maxContentWatches {
		return nil
	}
	var fs unix.Statfs_t
	if err := unix.Statfs(dir, &fs); err != nil || !localFS[int64(fs.Type)] {
		return nil
	}
	wd, err := unix.InotifyAddWatch(w.fd, dir, watchMask)
	if err != nil {
		return nil
	}
	if old := w.byWD[int32(wd)]; old != nil && old.alive && old.path != dir {
		// The same directory under a second path (a followed link): the
		// events carry one watch, so files under this path are checked
		// with a stat instead.
		return nil
	}
	dev, ino, ok := dirIdentity(dir)
	if !ok {
		return nil
	}
	d := &dirWatch{path: dir, wd: int32(wd), dev: dev, ino: ino, alive: true}
	w.byWD[int32(wd)] = d // replaces a dead watch the kernel handed out again
	return d
}

// drain reads every queued event without blocking: changed names go to
// changed (created: the name appeared, by a create, a link or a rename),
// directories that went away or were replaced to gone, and a lost queue
// (overflow) or a broken instance to lost.
func (w *watcher) drain(changed func(d *dirWatch, name string, created bool), gone func(d *dirWatch), lost func()) {
	for {
		n, err := unix.Read(w.fd, w.buf)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if n <= 0 {
			if err != nil && !errors.Is(err, syscall.EAGAIN) {
				lost()
			}
			return
		}
		for off := 0; off+unix.SizeofInotifyEvent <= n; {
			ev := (*unix.InotifyEvent)(unsafe.Pointer(&w.buf[off]))
			nameAt := off + unix.SizeofInotifyEvent
			off = nameAt + int(ev.Len)
			if ev.Mask&unix.IN_Q_OVERFLOW != 0 {
				lost()
				continue
			}
			d := w.byWD[ev.Wd]
			if d == nil {
				continue
			}
			if ev.Mask&(unix.IN_IGNORED|unix.IN_DELETE_SELF|unix.IN_MOVE_SELF|unix.IN_UNMOUNT) != 0 {
				if ev.Mask&unix.IN_IGNORED != 0 {
					delete(w.byWD, ev.Wd)
				}
				gone(d)
				continue
			}
			if ev.Len > 0 && off <= n {
				name := w.buf[nameAt:off]
				for len(name) > 0 && name[len(name)-1] == 0 {
					name = name[:len(name)-1]
				}
				changed(d, string(name), ev.Mask&(unix.IN_CREATE|unix.IN_MOVED_TO) != 0 && ev.Mask&unix.IN_ISDIR == 0)
			}
		}
	}
}

// forget drops every watch (after a lost queue): they are added again as
// files are read.
func (w *watcher) forget() {
	for wd := range w.byWD {
		unix.InotifyRmWatch(w.fd, uint32(wd))
		delete(w.byWD, wd)
	}
}

// close releases the inotify instance; the watcher is unusable after.
func (w *watcher) close() {
	unix.Close(w.fd)
	clear(w.byWD)
}

// dirIdentity is the device and inode of dir.
func dirIdentity(dir string) (dev, ino uint64, ok bool) {
	var st syscall.Stat_t
	if err := syscall.Stat(dir, &st); err != nil {
		return 0, 0, false
	}
	return uint64(st.Dev), uint64(st.Ino), true
}
