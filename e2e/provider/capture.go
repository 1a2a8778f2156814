package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"google.golang.org/grpc"
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
	if r, ok := req.(interface{ GetTargetTypeName() string }); ok {
		return r.GetTargetTypeName()
	}
	if r, ok := req.(interface{ GetTypeName() string }); ok {
		return r.GetTypeName()
	}
	return ""
}

func (c *capture) intercept(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	if !strings.HasPrefix(info.FullMethod, "/tfplugin6.Provider/") {
		return handler(ctx, req)
	}
	rpc := info.FullMethod[strings.LastIndexByte(info.FullMethod, '/')+1:]
	c.mu.Lock()
	defer c.mu.Unlock()
	lock, err := os.OpenFile(filepath.Join(c.dir, ".lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return nil, err
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	before, err := c.names()
	if err != nil {
		return nil, err
	}
	resp, herr := handler(ctx, req)
	// File names carry the millisecond: the next RPC (in any process) must start in a later one.
	end := time.Now().UnixMilli()
	for time.Now().UnixMilli() <= end {
		time.Sleep(200 * time.Microsecond)
	}
	after, err := c.names()
	if err != nil {
		return nil, err
	}
	var lines []byte
	for name := range after {
		if before[name] || strings.HasPrefix(name, ".") || name == "index.jsonl" {
			continue
		}
		b, _ := json.Marshal(indexLine{File: name, RPC: rpc, TypeName: typeNameOf(req), Phase: c.phase})
		lines = append(append(lines, b...), '\n')
	}
	if len(lines) > 0 {
		f, err := os.OpenFile(filepath.Join(c.dir, "index.jsonl"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			return nil, err
		}
		_, werr := f.Write(lines)
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			return nil, werr
		}
	}
	return resp, herr
}
