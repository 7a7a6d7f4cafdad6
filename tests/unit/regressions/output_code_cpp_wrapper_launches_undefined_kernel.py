r"""
Compile-time auto-tuning block: 

import torch
from torch._dynamo.testing import rand_strided
from torch._dynamo.utils import preserve_rng_state
from torch._inductor.select_algorithm import AlgorithmSelectorCache
from torch._inductor.async_compile import AsyncCompile

async_compile = AsyncCompile()
generate_example_value = AlgorithmSelectorCache.generate_example_value
empty_strided_cuda = torch._C._dynamo.guards._empty_strided_cuda
empty_strided_xpu = torch._C._dynamo.guards._empty_strided_xpu
get_raw_stream = torch._C._cuda_getCurrentRawStream

async_compile.wait(globals())
del async_compile
"""


import torch
from torch._inductor.codecache import CppWrapperCodeCache

cpp_wrapper_src = (
r'''
#include <torch/csrc/inductor/cpp_wrapper/cpu.h>
extern "C"  void  cpp_fused_add_expand_mul_slice_sub_view_0(const at::BFloat16* in_ptr0,
                       const float* in_ptr1,
                       float* out_ptr0);
extern "C"  void  cpp_fused_div_1(float* in_out_ptr0);
CACHE_TORCH_DTYPE(float32);
CACHE_TORCH_DEVICE(cpu);

void inductor_entry_impl(
    AtenTensorHandle*
        input_handles, // array of input AtenTensorHandle; handles
                        // are stolen; the array itself is borrowed
    AtenTensorHandle*
        output_handles  // array for writing output AtenTensorHandle; handles
                        // will be stolen by the caller; the array itself is
                        // borrowed)
) {
    py::gil_scoped_release_simple release;

    auto inputs = steal_from_raw_handles_to_raii_handles(input_handles, 2);
    auto primals_1 = std::move(inputs[0]);
    auto primals_2 = std::move(inputs[1]);
    static constexpr int64_t int_array_0[] = {8L, 1L, 5L, 15L};
    static constexpr int64_t int_array_1[] = {75L, 600L, 15L, 1L};
    AtenTensorHandle buf0_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(4, int_array_0, int_array_1, cached_torch_dtype_float32, cached_torch_device_type_cpu,  0, &buf0_handle));
    RAIIAtenTensorHandle buf0(buf0_handle);
    // [Provenance debug handles] cpp_fused_add_expand_mul_slice_sub_view_0:0
    cpp_fused_add_expand_mul_slice_sub_view_0((const at::BFloat16*)(primals_2.data_ptr()), (const float*)(primals_1.data_ptr()), (float*)(buf0.data_ptr()));
    // Topologically Sorted Source Nodes: [view, x, cumulative_trapezoid], Original ATen: [aten.view, aten.expand, aten.slice, aten.sub, aten.add, aten.mul, aten.cumsum]
    // [Provenance debug handles] aoti_torch_cpu_cumsum:2
    AtenTensorHandle buf2_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_cpu_cumsum(buf0, 3L, nullptr, &buf2_handle));
    RAIIAtenTensorHandle buf2(buf2_handle);
    buf0.reset();

    auto buf3 = std::move(buf2);  // reuse
    // [Provenance debug handles] cpp_fused_div_1:3
    cpp_fused_div_1((float*)(buf3.data_ptr()));
    output_handles[0] = buf3.release();
    output_handles[1] = primals_1.release();
    output_handles[2] = primals_2.release();
} // inductor_entry_impl

#include <torch/csrc/inductor/cpp_prefix.h>
extern "C"  void  cpp_fused_add_expand_mul_slice_sub_view_0(const at::BFloat16* in_ptr0,
                       const float* in_ptr1,
                       float* out_ptr0)
{
    {
        #pragma GCC ivdep
        for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(40L); x0+=static_cast<int64_t>(1L))
        {
            for(int64_t x1=static_cast<int64_t>(0L); x1<static_cast<int64_t>(15L); x1+=static_cast<int64_t>(16L))
            {
                {
                             auto tmp3 = tmp0 / tmp2;
                    tmp3.store(in_out_ptr0 + static_cast<int64_t>(x0));
                }
                if(C10_UNLIKELY(x0 >= static_cast<int64_t>(592L) && x0 < static_cast<int64_t>(600L)))
                {
                    auto tmp0 = at::vec::Vectorized<float>::loadu(in_out_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(8L));
                    auto tmp1 = static_cast<float>(2.0);
                    auto tmp2 = at::vec::Vectorized<float>(tmp1);
                    auto tmp3 = tmp0 / tmp2;
                    tmp3.store(in_out_ptr0 + static_cast<int64_t>(x0), static_cast<int64_t>(8L));
                }
            }
        }
    }
}
'''
)

inductor_entry = CppWrapperCodeCache.load_pybinding(
    argtypes=["std::vector<AtenTensorHandle>"],
    main_code=cpp_wrapper_src,
    device_type="cpu",
    num_outputs=3,
    kernel_code=None,
)

def _wrap_func(f):
    def g(args):
        input_tensors = [arg if isinstance(arg, torch.Tensor) else torch.tensor(arg, device='cpu') :Vectorized<float>::loadu(in_out_ptr0 + static_cast<for arg in args]
        input_handles = torch._C._aoti.unsafe_alloc_void_ptrs_from_tensors(input_tensors)

        args.clear()
        del input_tensors

        output_handles = f(input_handles)
        output_tensors = torch._C._aoti.alloc_tensors_by_stealing_from_void_ptrs(output_handles)
        return output_tensors

    return g

call = _wrap_func(inductor_entry)


def get_args():
    from torch._dynamo.testing import rand_strided
    primals_1 = rand_strided((16, ), (1, ), device='cpu', dtype=torch.float32)
    primals_2 = rand_strided((8, 1, 5, 16), (80, 80, 16, 1), device='cpu', dtype=torch.bfloat16)
    return [primals_1, primals_2]


def benchmark_compiled_module(args, times=10, repeat=10):
    from torch._inductor.utils import print_performance
    fn = lambda: call(list(args))
    return print_performance(fn, times=times, repeat=repeat)


if __name__ == "__main__":
    from torch._inductor.wrapper_benchmark import compiled_module_main
    args = get_args()
    compiled_module_main('None', lambda times, repeat: benchmark_compiled_module(args, times=times, repeat=repeat))
