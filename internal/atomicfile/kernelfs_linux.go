package atomicfile

import "golang.org/x/sys/unix"

// kernelFile reports whether the file at path lies on a file system the
// kernel makes up (procfs, sysfs).
func kernelFile(path string) bool {
	var st unix.Statfs_t
	if unix.Statfs(path, &st) != nil {
		return false
	}
	return st.Type == unix.PROC_SUPER_MAGIC || st.Type == unix.SYSFS_MAGIC
}
