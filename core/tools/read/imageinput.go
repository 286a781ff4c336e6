package read

// SniffImage returns the MIME type of a PNG, JPEG, GIF or WebP image from
// its first bytes (at least 12 are needed for WebP), or "" for anything
// else: the format is taken from the content, never the file name.
func SniffImage(head []byte) string { return sniffImage(head) }

// ImageForModel returns the image data to send to a model and its MIME
// type: with resize (images.autoResize), read's own downscaling and
// re-encoding — fitted into 1568×1568 and aimed under 500 KB — else the
// data as it is. An image that cannot be decoded is sent as it is, as a
// failed resize is in omp. mimeType is "" when data is not a PNG, JPEG,
// GIF or WebP image.
func ImageForModel(data []byte, resize bool) (mimeType string, out []byte) {
	mimeType = sniffImage(data)
	if mimeType == "" || !resize {
		return mimeType, data
	}
	p, err := prepareImage(data, "image", imageTargetBytes, false, true)
	if err != nil || p.data == nil {
		return mimeType, data
	}
	return p.mime, p.data
}
