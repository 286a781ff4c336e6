//go:build !linux

package grep

// watcher is not implemented here: the content cache checks every file
// with a stat.
type watcher struct{}

func newWatcher() *watcher                                                      { return nil }
func (w *watcher) add(string) *dirWatch                                         { return nil }
func (w *watcher) drain(func(*dirWatch, string, bool), func(*dirWatch), func()) {}
func (w *watcher) forget()                                                      {}
func (w *watcher) close()                                                       {}
func dirIdentity(string) (dev, ino uint64, ok bool)                             { return 0, 0, false }
