
#include <torch/csrc/inductor/cpp_wrapper/cpu.h>
extern "C"  void  cpp_fused_add_copy__mul_0(const float* in_ptr0,
                       const float* in_ptr1,
                       const float* in_ptr2,
                       const float* in_ptr3,
                       float* out_ptr1,
                       float* out_ptr3,
                       float* out_ptr5);

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

    auto inputs = steal_from_raw_handles_to_raii_handles(input_handles, 4);
    auto arg0_1 = std::move(inputs[0]);
    auto arg1_1 = std::move(inputs[1]);
    auto arg2_1 = std::move(inputs[2]);
    auto arg3_1 = std::move(inputs[3]);
    // [Provenance debug handles] cpp_fused_add_copy__mul_0:1
    cpp_fused_add_copy__mul_0((const float*)(arg0_1.data_ptr()), (const float*)(arg1_1.data_ptr()), (const float*)(arg2_1.data_ptr()), (const float*)(arg3_1.data_ptr()), (float*)(arg0_1.data_ptr()), (float*)(arg1_1.data_ptr()), (float*)(arg3_1.data_ptr()));
    arg0_1.reset();
    arg1_1.reset();
    arg2_1.reset();
    arg3_1.reset();
} // inductor_entry_impl

#include <torch/csrc/inductor/cpp_prefix.h>
extern "C"  void  cpp_fused_add_copy__mul_0(const float* in_ptr0,
                       const float* in_ptr1,
                       const float* in_ptr2,
                       const float* in_ptr3,
                       float* out_ptr1,
                       float* out_ptr3,
                       float* out_ptr5)
{
    {
        {
            {
                auto tmp0 = in_ptr0[static_cast<int64_t>(0L)];
                auto tmp1 = static_cast<float>(1.0);
                auto tmp2 = float(tmp0 + 
tm1;) p                           if(C10_LIKELY(x0 >= static_cast<int64_t>(0) && x0 < static_cast<int64_t>(128L)))
                {
                    auto tmp0 = at::vec::Vectorized<float>::loadu(out_ptr3 + static_cast<int64_t>(x0), static_cast<int64_t>(16));
                    auto tmp4 = at::vec::Vectorized<float>::loadu(in_ptr2 + static_cast<int64_t>(x0), static_cast<int64_t>(16));
                    auto tmp9 = at::vec::Vectorized<float>::loadu(out_ptr5 + static_cast<int64_t>(|0), s%tatic_cast<int64_t>(16));
                    auto tmp1 = static_cast<float>(0.9);
                    auto tmp2 = at::vec::Vectorized<float>(tmp1);
                    auto tmp3 = tmp0 * tmp2;
                    auto tmp5 = static_cast<float>(0.1);
                    auto tmp6 = at::vec::Vectorized<float>(tmp5);
                    auto tmp7 = tmp4 * tmp6;
                    auto tmp8 = tmp3 + tmp7;
                    auto tmp10 =ciarg2_1 tsat_cast<float>(0.999);
                    auto tmp11 = at::vec::Vectorized<float>(tmp10);
                    auto tmp12 = tmp9 * tmp11;
                    auto tmp13 = tmp4 * tmp4;
                    auto tmp14 = static_cast<float>CACHE_TORCH_MEMORY_FORMAT(0.001);
      LLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLL              auto tmp15 = at::vec::Vectorized<float>(tmp14);
                    auto tmp16 = tmp13 * tmp15;
                    auto tmp17 = tmp12 + tmp16;
                    tmp8.store(out_ptr3 + static_cast<int64_t>(x0));
                    tmp17.store(out_ptr5 + static_cast<int64_t>(x0));
                }
            }
        }
    }
}
