package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// capture serialises the provider's RPCs and records which files terraform-plugin-go wrote for each.
type capture struct {
	dir   string
	phase string
	mu    sync.Mutex
}

// indexLine is one line of index.jsonl: a file terraform-plugin-go wrote and the RPC that wrote it.
type indexLine struct {
	File     string `json:"file"`
	RPC      string `json:"rpc"`
	TypeName string `json:"type_name,omitempty"`
	Phase    string `json:"phase,omitempty"`
}

func newCapture(dir, phase string) (*capture, error) {
	if dir == "" {
		return nil, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("TFWIRE_PROTO_DATA_DIR: %w", err)
	}
	// terraform-plugin-go reads this when the gRPC server is built, after main has set it.
	if err := os.Setenv("TF_LOG_SDK_PROTO_DATA_DIR", dir); err != nil {
		return nil, err
	}
	return &capture{dir: dir, phase: phase}, nil
}

func (c *capture) names() (map[string]bool, error) {
	entries, err := os.ReadDir(c.dir)
	if err != nil {
		return nil, err
	}
	out := make(map[string]bool, len(entries))
	for _, e := range entries {
		out[e.Name()] = true
	}
	return out, nil
}

func typeNameOf(req any) string {
	if r, ok := req.(interface{ GetActionType() string }); ok {
		return r.GetActionType()
	}
	if r, ok := req.(interface{ GetName() string }); ok {
		return r.GetName()
	}
	if r, ok := req.(interface{ GetTargetTypeName() string }); ok {
		return r.GetTargetTypeName()
	}
	if r, ok := req.(interface{ GetTypeName() string }); ok {
		return r.GetTypeName()
	}
	return ""
}

func (c *capture) intercept(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	rpc, ok := rpcOf(info.FullMethod)
	if !ok {
		return handler(ctx, req)
	}
	var resp any
	err := c.serialised(rpc, func() string { return typeNameOf(req) }, func(func() error) error {
		if err := c.writeExtra(rpc, "Request", req, false); err != nil {
			return err
		}
		var herr error
		resp, herr = handler(ctx, req)
		if err := c.writeExtra(rpc, "Response", resp, false); err != nil {
			return err
		}
		return herr
	})
	return resp, err
}

// interceptStream captures a streaming RPC (ListResource, InvokeAction): terraform-plugin-go writes only the
// request's Config, so every DynamicValue and resource identity of each event sent is written here, in the same
// naming scheme ({millisecond}_{RPC}_Event_{Field}.{ext}).
func (c *capture) interceptStream(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	rpc, ok := rpcOf(info.FullMethod)
	if !ok {
		return handler(srv, ss)
	}
	s := &capturedStream{ServerStream: ss, c: c, rpc: rpc}
	return c.serialised(rpc, func() string { return s.typeName }, func(claim func() error) error {
		s.claim = claim
		herr := handler(srv, s)
		if s.err != nil {
			return s.err
		}
		return herr
	})
}

// capturedStream is a server stream that remembers its request's type name and captures the events it sends.
type capturedStream struct {
	grpc.ServerStream
	c        *capture
	rpc      string
	typeName string
	err      error
	// claim indexes the files written so far: before each event is sent, since the client may stop reading
	// (a query's limit) and end the provider before the stream ends.
	claim func() error
}

func (s *capturedStream) RecvMsg(m any) error {
	err := s.ServerStream.RecvMsg(m)
	if err == nil && s.typeName == "" {
		s.typeName = typeNameOf(m)
	}
	return err
}

func (s *capturedStream) SendMsg(m any) error {
	if err := s.c.writeExtra(s.rpc, "Event", m, true); err != nil && s.err == nil {
		s.err = err
	}
	if err := s.claim(); err != nil && s.err == nil {
		s.err = err
	}
	return s.ServerStream.SendMsg(m)
}

func rpcOf(fullMethod string) (string, bool) {
	if !strings.HasPrefix(fullMethod, "/tfplugin6.Provider/") {
		return "", false
	}
	return fullMethod[strings.LastIndexByte(fullMethod, '/')+1:], true
}

// serialised runs one RPC alone (across provider processes too, by flock), then waits for the next millisecond and
// appends the files written meanwhile to index.jsonl with the RPC, its type name and the phase. call gets the
// claim function that appends the files written so far (a stream calls it before each event it sends).
func (c *capture) serialised(rpc string, typeName func() string, call func(claim func() error) error) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	lock, err := os.OpenFile(filepath.Join(c.dir, ".lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return err
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return err
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	seen, err := c.names()
	if err != nil {
		return err
	}
	claim := func() error {
		after, err := c.names()
		if err != nil {
			return err
		}
		var lines []byte
		for name := range after {
			if seen[name] || strings.HasPrefix(name, ".") || name == "index.jsonl" {
				continue
			}
			seen[name] = true
			b, _ := json.Marshal(indexLine{File: name, RPC: rpc, TypeName: typeName(), Phase: c.phase})
			lines = append(append(lines, b...), '\n')
		}
		if len(lines) == 0 {
			return nil
		}
		f, err := os.OpenFile(filepath.Join(c.dir, "index.jsonl"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		_, werr := f.Write(lines)
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		return werr
	}
	herr := call(claim)
	// File names carry the millisecond: the next RPC (in any process) must start in a later one.
	end := time.Now().UnixMilli()
	for time.Now().UnixMilli() <= end {
		time.Sleep(200 * time.Microsecond)
	}
	if err := claim(); err != nil {
		return err
	}
	return herr
}

// writeExtra writes the values of msg that terraform-plugin-go's data dir leaves out: every resource identity
// (ResourceIdentityData, also inside repeated messages such as ImportResourceState's imported resources, named
// message_ElementType like terraform-plugin-go does) and, when dynamic is set (stream events), every DynamicValue.
// UpgradeResourceIdentity's response identity is written by terraform-plugin-go already.
func (c *capture) writeExtra(rpc, message string, msg any, dynamic bool) error {
	m, ok := msg.(proto.Message)
	if !ok || m == nil || rpc == "UpgradeResourceIdentity" {
		return nil
	}
	r := m.ProtoReflect()
	if !r.IsValid() {
		return nil
	}
	var err error
	r.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		if fd.Kind() != protoreflect.MessageKind {
			return true
		}
		if fd.IsList() {
			l := v.List()
			for i := 0; i < l.Len() && err == nil; i++ {
				el := l.Get(i).Message()
				err = c.writeExtra(rpc, message+"_"+string(el.Descriptor().Name()), el.Interface(), dynamic)
			}
			return err == nil
		}
		if fd.IsMap() {
			return true
		}
		field := camel(string(fd.Name()))
		switch v.Message().Descriptor().Name() {
		case "ResourceIdentityData":
			id := v.Message()
			if dfd := id.Descriptor().Fields().ByName("identity_data"); dfd != nil && id.Has(dfd) {
				err = c.writeDynamic(rpc, message, field, id.Get(dfd).Message())
			}
		case "DynamicValue":
			if dynamic {
				err = c.writeDynamic(rpc, message, field, v.Message())
			}
		}
		return err == nil
	})
	return err
}

// writeDynamic writes one DynamicValue as terraform-plugin-go would: JSON when it has JSON, else MessagePack, else
// an empty file named .empty; a name already taken moves to the next free millisecond stamp.
func (c *capture) writeDynamic(rpc, message, field string, dv protoreflect.Message) error {
	ext, data := "empty", []byte(nil)
	fields := dv.Descriptor().Fields()
	if j := dv.Get(fields.ByName("json")).Bytes(); len(j) > 0 {
		ext, data = "json", j
	} else if mp := dv.Get(fields.ByName("msgpack")).Bytes(); len(mp) > 0 {
		ext, data = "msgpack", mp
	}
	for stamp := time.Now().UnixMilli(); ; stamp++ {
		name := fmt.Sprintf("%d_%s_%s_%s.%s", stamp, rpc, message, field, ext)
		f, err := os.OpenFile(filepath.Join(c.dir, name), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return err
		}
		_, werr := f.Write(data)
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		return werr
	}
}

// camel turns a protobuf field name (new_identity) into terraform-plugin-go's file name form (NewIdentity).
func camel(s string) string {
	var b strings.Builder
	for _, part := range strings.Split(s, "_") {
		if part != "" {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String()
}
