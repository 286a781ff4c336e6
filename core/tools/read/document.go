package read

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/net/html"
)

// Document limits: the largest local document converted, the most XML
// one zip member may inflate to (a zip bomb stops there), and the most
// text kept from one document.
const (
	maxDocumentBytes  = 64 << 20
	maxDocumentMember = 64 << 20
	maxDocumentText   = 16 << 20
)

// documentExt returns ext (".pdf", lower case) when read converts files
// with that extension to text, else "".
func documentExt(ext string) string {
	switch ext {
	case ".pdf", ".docx", ".xlsx", ".pptx", ".epub", ".rtf", ".doc", ".xls", ".ppt":
		return ext
	}
	return ""
}

// documentMedia maps a document MIME type to its extension ("" when it is
// not a document type read converts).
func documentMedia(mediaType string) string {
	switch mediaType {
	case "application/pdf", "application/x-pdf":
		return ".pdf"
	case "application/vnd.openxmlformats-officedocument.wordprocessingml.document":
		return ".docx"
	case "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet":
		return ".xlsx"
	case "application/vnd.openxmlformats-officedocument.presentationml.presentation":
		return ".pptx"
	case "application/epub+zip":
		return ".epub"
	case "application/rtf", "text/rtf":
		return ".rtf"
	case "application/msword":
		return ".doc"
	case "application/vnd.ms-excel":
		return ".xls"
	case "application/vnd.ms-powerpoint":
		return ".ppt"
	}
	return ""
}

// errTextCap stops an extraction that reached maxDocumentText.
var errTextCap = errors.New("text cap reached")

// docText collects extracted text up to maxDocumentText.
type docText struct {
	strings.Builder
	cut bool
}

// add appends s unless the cap is reached.
func (d *docText) add(s string) error {
	if d.cut {
		return errTextCap
	}
	if d.Len()+len(s) > maxDocumentText {
		d.WriteString(s[:max(0, maxDocumentText-d.Len())])
		d.cut = true
		return errTextCap
	}
	d.WriteString(s)
	return nil
}

// result returns the text, with a line saying it was cut when it was.
func (d *docText) result() string {
	s := strings.TrimRight(d.String(), "\n \t") + "\n"
	if d.cut {
		s += "\n[The text was cut at " + strconv.Itoa(maxDocumentText>>20) + " MiB.]\n"
	}
	return s
}

// convertDocument extracts the text of a document of kind ext (".pdf",
// ".docx", …) from r (size bytes). file, when set, is the document's path
// on disk (the pdftotext fallback needs one). The error says why the
// document could not be converted; callers show it as a notice.
func (t *Tool) convertDocument(ctx context.Context, r io.ReaderAt, size int64, ext, file string) (string, error) {
	switch ext {
	case ".pdf":
		return t.convertPDF(ctx, r, size, file)
	case ".rtf":
		b, err := io.ReadAll(io.NewSectionReader(r, 0, size))
		if err != nil {
			return "", err
		}
		return rtfText(b)
	case ".doc", ".xls", ".ppt":
		return "", fmt.Errorf("the legacy binary Office format is not supported; save it as %sx and read that", ext)
	}
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return "", fmt.Errorf("not a valid %s file (%v)", ext, err)
	}
	z := zipDoc{files: map[string]*zip.File{}}
	for _, f := range zr.File {
		z.files[strings.TrimPrefix(f.Name, "/")] = f
	}
	switch ext {
	case ".docx":
		return z.docx()
	case ".xlsx":
		return z.xlsx()
	case ".pptx":
		return z.pptx()
	case ".epub":
		return z.epub()
	}
	return "", fmt.Errorf("unknown document type %s", ext)
}

// zipDoc is an Office Open XML or EPUB container.
type zipDoc struct{ files map[string]*zip.File }

// open returns a decoder over member name, inflating at most
// maxDocumentMember bytes.
func (z zipDoc) read(name string) ([]byte, error) {
	f, ok := z.files[name]
	if !ok {
		return nil, fmt.Errorf("%s is missing", name)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, maxDocumentMember+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if len(b) > maxDocumentMember {
		return nil, fmt.Errorf("%s inflates to more than %d MiB", name, maxDocumentMember>>20)
	}
	return b, nil
}

// walk calls fn for every token of the XML member name; fn returning
// errTextCap ends the walk quietly.
func (z zipDoc) walk(name string, fn func(xml.Token) error) error {
	b, err := z.read(name)
	if err != nil {
		return err
	}
	dec := xml.NewDecoder(bytes.NewReader(b))
	dec.Strict = false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
		if err := fn(tok); err != nil {
			if errors.Is(err, errTextCap) {
				return nil
			}
			return err
		}
	}
}

// rels maps relationship ids to member paths for the part at partPath
// (its rels file is <dir>/_rels/<base>.rels).
func (z zipDoc) rels(partPath string) map[string]string {
	dir, base := path.Split(partPath)
	out := map[string]string{}
	_ = z.walk(dir+"_rels/"+base+".rels", func(tok xml.Token) error {
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "Relationship" {
			id, target := attr(se, "Id"), attr(se, "Target")
			if strings.HasPrefix(target, "/") {
				out[id] = strings.TrimPrefix(target, "/")
			} else {
				out[id] = path.Clean(dir + target)
			}
		}
		return nil
	})
	return out
}

// attr returns the value of the attribute with local name local.
func attr(se xml.StartElement, local string) string {
	for _, a := range se.Attr {
		if a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

// relID returns an element's relationship id: its namespaced "id"
// attribute (r:id), not a plain id="…".
func relID(se xml.StartElement) string {
	for _, a := range se.Attr {
		if a.Name.Local == "id" && a.Name.Space != "" {
			return a.Value
		}
	}
	return ""
}

// docx renders word/document.xml: paragraphs as lines, headings with '#',
// list items with '-', tables as rows of cells separated by '|'.
func (z zipDoc) docx() (string, error) {
	var out docText
	var para strings.Builder // the paragraph being read
	var cells []string       // cells of the table row being read
	var cell strings.Builder // the cell being read
	heading, list := 0, false
	inText, inRun, tableDepth, rows := false, false, 0, 0
	err := z.walk("word/document.xml", func(tok xml.Token) error {
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "r":
				inRun = true
			case "t":
				inText = inRun
			case "tab":
				if inRun {
					para.WriteByte('\t')
				}
			case "br", "cr":
				if inRun {
					para.WriteByte('\n')
				}
			case "pStyle":
				heading = headingLevel(attr(t, "val"))
			case "numPr":
				list = true
			case "tbl":
				tableDepth++
				rows = 0
			case "tr":
				cells = cells[:0]
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "r":
				inRun = false
			case "t":
				inText = false
			case "p":
				text := strings.TrimRight(para.String(), " ")
				para.Reset()
				if tableDepth > 0 {
					if cell.Len() > 0 && text != "" {
						cell.WriteByte(' ')
					}
					cell.WriteString(strings.ReplaceAll(text, "\n", " "))
				} else {
					switch {
					case heading > 0 && text != "":
						text = strings.Repeat("#", heading) + " " + text
					case list && text != "":
						text = "- " + text
					}
					if err := out.add(text + "\n"); err != nil {
						return err
					}
				}
				heading, list = 0, false
			case "tc":
				cells = append(cells, strings.ReplaceAll(cell.String(), "|", `\|`))
				cell.Reset()
			case "tr":
				if tableDepth == 1 {
					line := "| " + strings.Join(cells, " | ") + " |\n"
					if rows == 0 {
						line += "|" + strings.Repeat(" --- |", len(cells)) + "\n"
					}
					rows++
					if err := out.add(line); err != nil {
						return err
					}
				}
			case "tbl":
				tableDepth--
				if tableDepth == 0 {
					if err := out.add("\n"); err != nil {
						return err
					}
				}
			}
		case xml.CharData:
			if inText {
				para.Write(t)
			}
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	return out.result(), nil
}

// headingLevel maps a Word paragraph style to a heading level (0: none).
func headingLevel(style string) int {
	s := strings.ToLower(style)
	if s == "title" {
		return 1
	}
	if rest, ok := strings.CutPrefix(s, "heading"); ok {
		if n, err := strconv.Atoi(strings.TrimSpace(rest)); err == nil && n >= 1 {
			return min(n, 6)
		}
	}
	return 0
}

// xlsx renders each worksheet as a table, in workbook order.
func (z zipDoc) xlsx() (string, error) {
	var shared []string
	if _, ok := z.files["xl/sharedStrings.xml"]; ok {
		var cur strings.Builder
		inT, inPhonetic := false, false
		err := z.walk("xl/sharedStrings.xml", func(tok xml.Token) error {
			switch t := tok.(type) {
			case xml.StartElement:
				switch t.Name.Local {
				case "si":
					cur.Reset()
				case "t":
					inT = true
				case "rPh":
					inPhonetic = true
				}
			case xml.EndElement:
				switch t.Name.Local {
				case "si":
					shared = append(shared, cur.String())
				case "t":
					inT = false
				case "rPh":
					inPhonetic = false
				}
			case xml.CharData:
				if inT && !inPhonetic {
					cur.Write(t)
				}
			}
			return nil
		})
		if err != nil {
			return "", err
		}
	}
	type sheet struct{ name, id string }
	var sheets []sheet
	if err := z.walk("xl/workbook.xml", func(tok xml.Token) error {
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "sheet" {
			sheets = append(sheets, sheet{attr(se, "name"), relID(se)})
		}
		return nil
	}); err != nil {
		return "", err
	}
	rels := z.rels("xl/workbook.xml")
	var out docText
	for i, sh := range sheets {
		member := rels[sh.id]
		if member == "" {
			member = "xl/worksheets/sheet" + strconv.Itoa(i+1) + ".xml"
		}
		if err := out.add("## Sheet: " + sh.name + "\n\n"); err != nil {
			break
		}
		rows, err := z.sheetRows(member, shared)
		if err != nil {
			return "", err
		}
		if len(rows) == 0 {
			if out.add("(empty sheet)\n\n") != nil {
				break
			}
			continue
		}
		width := 0
		for _, r := range rows {
			width = max(width, len(r))
		}
		for n, r := range rows {
			for len(r) < width {
				r = append(r, "")
			}
			line := "| " + strings.Join(r, " | ") + " |\n"
			if n == 0 {
				line += "|" + strings.Repeat(" --- |", width) + "\n"
			}
			if out.add(line) != nil {
				break
			}
		}
		if out.add("\n") != nil {
			break
		}
	}
	return out.result(), nil
}

// maxSheetColumns bounds the columns rendered of one sheet row.
const maxSheetColumns = 256

// sheetRows reads the non-empty rows of a worksheet; cells land in the
// column their reference names (A1, C7, …).
func (z zipDoc) sheetRows(member string, shared []string) ([][]string, error) {
	var rows [][]string
	var row []string
	var val strings.Builder
	col, kind, inV := 0, "", false
	total := 0
	err := z.walk(member, func(tok xml.Token) error {
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "row":
				row = nil
				col = 0
			case "c":
				if c := columnIndex(attr(t, "r")); c >= 0 {
					col = c
				}
				kind = attr(t, "t")
				val.Reset()
			case "v", "t":
				inV = true
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "v", "t":
				inV = false
			case "c":
				v := val.String()
				switch kind {
				case "s":
					if i, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && i >= 0 && i < len(shared) {
						v = shared[i]
					}
				case "b":
					v = map[string]string{"0": "FALSE", "1": "TRUE"}[strings.TrimSpace(v)]
				}
				if col < maxSheetColumns {
					for len(row) <= col {
						row = append(row, "")
					}
					row[col] = strings.ReplaceAll(strings.ReplaceAll(v, "\n", " "), "|", `\|`)
				}
				col++
			case "row":
				if strings.TrimSpace(strings.Join(row, "")) != "" {
					rows = append(rows, row)
					for _, c := range row {
						total += len(c) + 3
					}
					if total > maxDocumentText {
						return errTextCap
					}
				}
			}
		case xml.CharData:
			if inV {
				val.Write(t)
			}
		}
		return nil
	})
	return rows, err
}

// columnIndex turns a cell reference ("C7") into a 0-based column (2), or
// -1 when ref has no letters.
func columnIndex(ref string) int {
	n, i := 0, 0
	for ; i < len(ref) && ref[i] >= 'A' && ref[i] <= 'Z'; i++ {
		n = n*26 + int(ref[i]-'A'+1)
		if n > 1<<20 {
			return -1
		}
	}
	if i == 0 {
		return -1
	}
	return n - 1
}

// pptx renders the text of each slide, in presentation order.
func (z zipDoc) pptx() (string, error) {
	var ids []string
	_ = z.walk("ppt/presentation.xml", func(tok xml.Token) error {
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "sldId" {
			ids = append(ids, relID(se))
		}
		return nil
	})
	rels := z.rels("ppt/presentation.xml")
	var slides []string
	for _, id := range ids {
		if m := rels[id]; m != "" {
			slides = append(slides, m)
		}
	}
	if len(slides) == 0 { // no usable order: slideN.xml by number
		for name := range z.files {
			if strings.HasPrefix(name, "ppt/slides/slide") && strings.HasSuffix(name, ".xml") {
				slides = append(slides, name)
			}
		}
		sort.Slice(slides, func(i, j int) bool { return slideNumber(slides[i]) < slideNumber(slides[j]) })
	}
	if len(slides) == 0 {
		return "", errors.New("it has no slides")
	}
	var out docText
	for i, s := range slides {
		var para strings.Builder
		var lines []string
		inT := false
		if err := z.walk(s, func(tok xml.Token) error {
			switch t := tok.(type) {
			case xml.StartElement:
				switch t.Name.Local {
				case "t":
					inT = true
				case "br":
					para.WriteByte('\n')
				}
			case xml.EndElement:
				switch t.Name.Local {
				case "t":
					inT = false
				case "p":
					if l := strings.TrimSpace(para.String()); l != "" {
						lines = append(lines, l)
					}
					para.Reset()
				}
			case xml.CharData:
				if inT {
					para.Write(t)
				}
			}
			return nil
		}); err != nil {
			return "", err
		}
		if out.add("## Slide "+strconv.Itoa(i+1)+"\n\n"+strings.Join(lines, "\n")+"\n\n") != nil {
			break
		}
	}
	return out.result(), nil
}

func slideNumber(name string) int {
	n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(name, "ppt/slides/slide"), ".xml"))
	return n
}

// epub renders the spine's XHTML documents as markdown, in reading order.
func (z zipDoc) epub() (string, error) {
	var opf string
	if err := z.walk("META-INF/container.xml", func(tok xml.Token) error {
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "rootfile" && opf == "" {
			opf = attr(se, "full-path")
		}
		return nil
	}); err != nil {
		return "", err
	}
	if opf == "" {
		return "", errors.New("META-INF/container.xml names no package document")
	}
	manifest := map[string]string{}
	var spine []string
	var title strings.Builder
	inTitle := false
	if err := z.walk(opf, func(tok xml.Token) error {
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "item":
				manifest[attr(t, "id")] = attr(t, "href")
			case "itemref":
				spine = append(spine, attr(t, "idref"))
			case "title":
				inTitle = title.Len() == 0
			}
		case xml.EndElement:
			if t.Name.Local == "title" {
				inTitle = false
			}
		case xml.CharData:
			if inTitle {
				title.Write(t)
			}
		}
		return nil
	}); err != nil {
		return "", err
	}
	var out docText
	if t := strings.TrimSpace(title.String()); t != "" {
		_ = out.add("# " + t + "\n\n")
	}
	dir := path.Dir(opf)
	for _, id := range spine {
		href := manifest[id]
		if href == "" {
			continue
		}
		if u, err := url.PathUnescape(href); err == nil {
			href = u
		}
		member := path.Clean(path.Join(dir, href))
		b, err := z.read(member)
		if err != nil {
			return "", err
		}
		doc, err := html.Parse(bytes.NewReader(b))
		if err != nil {
			return "", fmt.Errorf("%s: %v", member, err)
		}
		md, err := htmlToMarkdown(doc, "")
		if err != nil {
			return "", fmt.Errorf("%s: %v", member, err)
		}
		if md = strings.TrimSpace(md); md != "" && out.add(md+"\n\n") != nil {
			break
		}
	}
	return out.result(), nil
}
