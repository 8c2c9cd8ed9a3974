@triton.jit
def triton_for_fused_0(in_ptr0, out_ptr0, out_ptr1):
    pid = tl.program_id(0)
    XBLOCK: tl.constexpr = 1024
    num_xblocks_0 = tl.cdiv(4, XBLOCK)
    if pid < num_xblocks_0:
        pid_offset = pid
        tl.store(out_ptr0 + (pid_offset), tl.load(in_ptr0 + (pid_offset)))
    elif pid < num_xblocks_1:
        pid_offset = pid - num_xblocks_0
    else:
        pass
